// server.use() (issue 26): a middleware written as in docs/middleware.md blocks, rewrites and
// times calls on both eras (v2 client pinned to 2026-07-28, v2 legacy, v1) over both transports
// (a real stdio child process and real HTTP on 127.0.0.1); unit tests over the in-memory transport
// cover order, scoping, short-circuits, changed params and the error mapping.
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RateLimitedError, ToolkitError, UserError } from '../../src/errors.js';
import { HttpMcpServer as BuiltHttpMcpServer } from '../../dist/index.js';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import type { MiddlewareContext } from '../../src/mcp/pipeline/middleware.js';
import { middlewareErrorStage } from '../../src/mcp/pipeline/middleware-errors.js';
import { RequestPipeline } from '../../src/mcp/pipeline/request-pipeline.js';
import { defineTool } from '../../src/registry/tool.js';
import { useExampleMiddleware } from '../fixtures/example-middleware.mjs';
import { registerFixturePrompts } from '../fixtures/fixture-prompts.mjs';
import { fixtureTools } from '../fixtures/fixture-tools.mjs';
import { CLIENT_KINDS, connectClient, type TestClient } from '../support/clients.js';
import { InMemoryServer, silentLogger } from '../support/in-memory.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/middleware-stdio-fixture.mjs', import.meta.url));
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

async function openHttp(kind: (typeof CLIENT_KINDS)[number]): Promise<TestClient> {
  // The built package, as the stdio child runs it: the fixture's UserError is the package's class.
  const server = new BuiltHttpMcpServer({ name: 'middleware', version: '1.0.0' }, { port: 0, logger: silentLogger() });
  for (const tool of fixtureTools()) server.registerTool(tool);
  registerFixturePrompts(server);
  useExampleMiddleware(server);
  await server.start();
  closers.push(() => server.stop());
  const url = new URL(server.address.url);
  const client = await connectClient(kind, kind === 'v1' ? new HttpV1(url) : new HttpV2(url));
  closers.push(() => client.close());
  return client;
}

async function openStdioChild(kind: (typeof CLIENT_KINDS)[number]): Promise<TestClient> {
  const params = { command: process.execPath, args: [FIXTURE], stderr: 'pipe' as const };
  const client = await connectClient(kind, kind === 'v1' ? new StdioV1(params) : new StdioV2(params));
  closers.push(() => client.close());
  return client;
}

type Meta = { _meta?: Record<string, unknown> };

describe('server.use(): the documented middleware on every era and transport', () => {
  for (const transport of ['http', 'stdio'] as const) {
    for (const kind of CLIENT_KINDS) {
      it(`blocks, rewrites and times calls (${transport}, ${kind})`, { timeout: 30_000 }, async () => {
        const client = transport === 'http' ? await openHttp(kind) : await openStdioChild(kind);
        expect(await client.toolNames()).toEqual(['echo', 'add', 'fail']);

        const echoed = (await client.callTool('echo', { text: 'hi' })) as Awaited<ReturnType<TestClient['callTool']>> &
          Meta;
        expect(echoed.content[0]?.text).toBe('hi');
        expect(echoed._meta?.['example/ms']).toBeTypeOf('number');
        expect(echoed._meta).toMatchObject({
          'example/era': kind === 'v2-modern' ? 'modern' : 'legacy',
          'example/transport': transport,
        });

        const blocked = await client.callTool('echo', { text: 'forbidden' });
        expect(blocked.isError).toBe(true);
        expect(blocked.content[0]?.text).toBe('Echoing "forbidden" is not allowed here: send another text.');

        expect((await client.callTool('add', { a: 2, b: 3 })).content[0]?.text).toBe('32');

        await expect(client.getPrompt('greet', { name: 'Mallory' })).rejects.toMatchObject({
          code: -32602,
          message: expect.stringContaining('Mallory may not be greeted.'),
        });
        expect((await client.getPrompt('greet', { name: 'Ada' })).messages.length).toBeGreaterThan(0);
      });
    }
  }
});

const addTool = () =>
  defineTool({
    name: 'add',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    annotations: { readOnlyHint: true },
    execute: ({ a, b }) => String(a + b),
  });

async function inMemory(era: 'legacy' | 'modern' = 'legacy') {
  const server = new InMemoryServer();
  server.registerTool(addTool());
  server.registerTool(
    defineTool({ name: 'who', execute: (_args, context) => JSON.stringify(context.principal ?? null) }),
  );
  await server.start();
  closers.push(() => server.stop());
  const connect = async () => {
    const client = await server.connect(era);
    closers.push(() => client.close());
    return client;
  };
  return { server, connect };
}

const text = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe('server.use() over the in-memory transport', () => {
  it('runs middleware in registration order (first is outermost) and can be removed', async () => {
    const { server, connect } = await inMemory();
    const order: string[] = [];
    server.use(async (context, next) => {
      order.push(`a in ${context.method}`);
      const result = await next();
      order.push('a out');
      return result;
    });
    const removeB = server.use(async (_context, next) => {
      order.push('b in');
      const result = await next();
      order.push('b out');
      return result;
    });
    const client = await connect();
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(order).toEqual(['a in tools/call', 'b in', 'b out', 'a out']);
    removeB();
    order.length = 0;
    await client.listTools();
    expect(order).toEqual(['a in tools/list', 'a out']);
  });

  it('scopes to methods and tool names; others pass straight on', async () => {
    const { server, connect } = await inMemory();
    const seen: string[] = [];
    server.use(
      (context, next) => {
        seen.push(`${context.method} ${context.toolName}`);
        return next();
      },
      { tools: ['add'] },
    );
    server.use(
      (context, next) => {
        seen.push(`list ${context.method}`);
        return next();
      },
      { methods: ['tools/list', 'prompts/list'] },
    );
    const client = await connect();
    await client.listTools();
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    await client.callTool({ name: 'who', arguments: {} });
    await client.listResources();
    expect(seen).toEqual(['list tools/list', 'tools/call add']);
    expect(() => server.use((_c, next) => next(), { tools: [] })).toThrow(/scope tools must be a non-empty array/);
    expect(() => server.use('nope' as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });

  it('keeps methods outside every scope on the direct path (the cached tools/list result as it is)', () => {
    const pipeline = new RequestPipeline(middlewareErrorStage);
    const ctx = { mcpReq: { id: 1, signal: new AbortController().signal } } as never;
    const listed = { tools: [] };
    const list = pipeline.handler('tools/list', () => listed);
    pipeline.add((_context, next) => next(), new Set(['tools/call']));
    expect(list({}, ctx)).toBe(listed); // the handler's own object, synchronously: no stage ran
    const call = pipeline.handler('tools/call', () => ({ content: [] }));
    expect(call({ params: { name: 'x' } }, ctx)).toBeInstanceOf(Promise);
    const remove = pipeline.add((_context, next) => next());
    expect(list({}, ctx)).toBeInstanceOf(Promise);
    remove();
    expect(list({}, ctx)).toBe(listed);
  });

  it('short-circuits without the handler, and changes results', async () => {
    const { server, connect } = await inMemory('modern');
    let handled = 0;
    server.use(async (context, next) => {
      if (context.method === 'tools/call' && context.params.arguments?.a === 0) {
        return { content: [{ type: 'text', text: 'from middleware' }] };
      }
      handled += 1;
      const result = await next();
      if (context.method !== 'tools/list') return result;
      const tools = (result.tools as Array<{ name: string }>).filter((tool) => tool.name !== 'who');
      return { ...result, tools };
    });
    const client = await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['add']);
    expect(text(await client.callTool({ name: 'add', arguments: { a: 0, b: 5 } }))).toBe('from middleware');
    expect(text(await client.callTool({ name: 'add', arguments: { a: 1, b: 5 } }))).toBe('6');
    expect(handled).toBe(2);
  });

  it('passes changed params to later middleware and the handler; tool arguments are still validated', async () => {
    const { server, connect } = await inMemory();
    const inner: unknown[] = [];
    server.use((context, next) =>
      context.method === 'tools/call' ? next({ ...context.params, name: 'add', arguments: { a: 'x', b: 1 } }) : next(),
    );
    server.use((context, next) => {
      inner.push([context.toolName, context.params]);
      return next();
    });
    const client = await connect();
    const result = await client.callTool({ name: 'who', arguments: {} });
    expect(inner).toEqual([['add', { name: 'add', arguments: { a: 'x', b: 1 } }]]);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Invalid arguments for tool "add"');
  });

  it('maps thrown errors: tool results on tools/call, JSON-RPC errors elsewhere; handler errors unchanged', async () => {
    const { server, connect } = await inMemory();
    const toThrow: { error?: unknown } = {};
    server.use((context, next) => {
      if (toThrow.error && context.method !== 'tools/list') throw toThrow.error;
      return next();
    });
    const client = await connect();
    toThrow.error = new RateLimitedError(1500, 'Too many calls; try again in 2 s.');
    const limited = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(limited).toMatchObject({ isError: true, _meta: { retryAfterMs: 1500 } });
    expect(text(limited)).toBe('Too many calls; try again in 2 s.');
    await expect(client.listPrompts()).rejects.toMatchObject({ code: -32029, data: { retryAfterMs: 1500 } });

    toThrow.error = new ToolkitError('USER_ERROR', 'Switched off for maintenance until 10:00 UTC.');
    await expect(client.listResources()).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('Switched off for maintenance'),
    });
    toThrow.error = new Error('boom');
    expect(text(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe(
      'The call to tool "add" was refused: boom',
    );
    await expect(client.listResources()).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('Middleware failed on resources/list: boom'),
    });
    toThrow.error = undefined;
    // An unknown tool stays the handler's JSON-RPC error -32602, with middleware present.
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    void UserError;
  });

  it('gives middleware and tools the principal; HTTP headers and the peer address read-only', async () => {
    const server = new HttpMcpServer(
      { name: 'principal', version: '1.0.0' },
      {
        port: 0,
        logger: silentLogger(),
        authenticate: (req) => ({ token: 't', clientId: String(req.headers['x-user'] ?? 'anon'), scopes: ['read'] }),
      },
    );
    const seen: Array<Pick<MiddlewareContext, 'principal'> & { agent: string | null; ip?: string }> = [];
    server.use((context, next) => {
      seen.push({
        principal: context.principal,
        agent: context.request?.headers.get('x-user') ?? null,
        ip: context.request?.remoteAddress,
      });
      return next();
    });
    server.registerTool(
      defineTool({
        name: 'who',
        execute: (_args, context) =>
          JSON.stringify({
            principal: context.principal,
            user: context.request?.headers.get('x-user'),
            settable: typeof (context.request?.headers as unknown as { set?: unknown }).set,
          }),
      }),
    );
    await server.start();
    closers.push(() => server.stop());
    for (const kind of ['v2-legacy', 'v2-modern'] as const) {
      const url = new URL(server.address.url);
      const client = await connectClient(kind, new HttpV2(url, { requestInit: { headers: { 'x-user': 'alice' } } }));
      closers.push(() => client.close());
      const answer = JSON.parse((await client.callTool('who')).content[0]!.text!);
      expect(answer).toEqual({
        principal: { clientId: 'alice', scopes: ['read'], claims: {} },
        user: 'alice',
        settable: 'undefined',
      });
    }
    const calls = seen.filter((entry) => entry.principal);
    expect(calls.length).toBeGreaterThan(1);
    for (const entry of calls) expect(entry).toMatchObject({ agent: 'alice', ip: '127.0.0.1' });
  });
});
