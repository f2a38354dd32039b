// The built-in middleware of mcp-toolkit/middleware over real clients: rate limits (memory) per
// principal and per tool on HTTP with the v1, v2 legacy and v2 2026-07-28 clients; the response cache
// (read-only tools, lists, per principal, dropped on a toggle); the audit log; and all three in a
// real stdio child process, whose stdout stays pure JSON-RPC while the audit log goes to stderr.
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import { auditLog, type AuditEntry } from '../../src/middleware/audit-log.js';
import { rateLimit } from '../../src/middleware/rate-limit.js';
import { responseCache } from '../../src/middleware/response-cache.js';
import { defineTool } from '../../src/registry/tool.js';
import { CLIENT_KINDS, connectClient, type ClientKind, type TestClient } from '../support/clients.js';
import { silentLogger } from '../support/in-memory.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

const executions = { lookup: 0, write: 0 };
function tools() {
  return [
    defineTool({
      name: 'lookup',
      inputSchema: z.object({ key: z.string() }),
      annotations: { readOnlyHint: true },
      execute: ({ key }, context) => `${key} for ${context.principal?.clientId} #${++executions.lookup}`,
    }),
    defineTool({
      name: 'write',
      inputSchema: z.object({ key: z.string() }),
      execute: ({ key }) => `wrote ${key} #${++executions.write}`,
    }),
  ];
}

/** An HTTP server whose `authenticate` takes the principal from the `x-user` header. */
async function httpServer(setup: (server: HttpMcpServer) => void) {
  const server = new HttpMcpServer(
    { name: 'built-ins', version: '1.0.0' },
    {
      port: 0,
      logger: silentLogger(),
      authenticate: (req) => ({ token: 't', clientId: String(req.headers['x-user'] ?? 'anon'), scopes: [] }),
    },
  );
  for (const tool of tools()) server.registerTool(tool);
  setup(server);
  await server.start();
  closers.push(() => server.stop());
  const connect = async (kind: ClientKind, user: string): Promise<TestClient> => {
    const url = new URL(server.address.url);
    const init = { requestInit: { headers: { 'x-user': user } } };
    const client = await connectClient(kind, kind === 'v1' ? new HttpV1(url, init) : new HttpV2(url, init));
    closers.push(() => client.close());
    return client;
  };
  return { server, connect };
}

const first = (result: { content: Array<{ text?: string }> }) => result.content[0]?.text;

describe('rateLimit()', () => {
  for (const kind of CLIENT_KINDS) {
    it(`refuses calls over a principal's per-tool budget and says when to retry (${kind})`, async () => {
      const { connect } = await httpServer((server) =>
        server.use(rateLimit({ points: 2, durationMs: 60_000, tools: { write: { points: 1, durationMs: 60_000 } } }), {
          methods: ['tools/call'],
        }),
      );
      const alice = await connect(kind, 'alice');
      const bob = await connect(kind, 'bob');
      expect((await alice.callTool('lookup', { key: 'a' })).isError).toBeFalsy();
      expect((await alice.callTool('lookup', { key: 'b' })).isError).toBeFalsy();
      const refused = (await alice.callTool('lookup', { key: 'c' })) as Awaited<ReturnType<TestClient['callTool']>> & {
        _meta?: { retryAfterMs?: number };
      };
      expect(refused.isError).toBe(true);
      expect(first(refused)).toMatch(/^Rate limit reached for tool "lookup" \(2 per 60 s\); try again in \d+ s\.$/);
      expect(refused._meta?.retryAfterMs).toBeGreaterThan(50_000);
      // Another tool has its own budget; another principal its own.
      expect((await alice.callTool('write', { key: 'x' })).isError).toBeFalsy();
      expect((await alice.callTool('write', { key: 'y' })).isError).toBe(true);
      expect((await bob.callTool('lookup', { key: 'a' })).isError).toBeFalsy();
      // Lists are outside the scope.
      expect(await alice.toolNames()).toEqual(['lookup', 'write']);
    });
  }

  it('limits other methods with the JSON-RPC error -32029 and retryAfterMs', async () => {
    const { connect } = await httpServer((server) =>
      server.use(rateLimit({ points: 1, durationMs: 5_000, by: 'ip', perTool: false }), { methods: ['prompts/list'] }),
    );
    const client = await connect('v2-modern', 'carol');
    await client.prompts();
    await expect(client.prompts()).rejects.toMatchObject({
      code: -32029,
      message: expect.stringContaining('Rate limit reached for prompts/list (1 per 5 s)'),
      data: { retryAfterMs: expect.any(Number) },
    });
  });

  it('rejects budgets that cannot work', () => {
    expect(() => rateLimit({ points: 0, durationMs: 1000 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
    expect(() => rateLimit({ points: 1, durationMs: 10 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});

describe('responseCache()', () => {
  for (const kind of CLIENT_KINDS) {
    it(`reuses read-only tool answers and lists per principal, and drops lists on a change (${kind})`, async () => {
      let listed = 0; // tools/list requests that got past the cache
      const { server, connect } = await httpServer((s) => {
        s.use(responseCache({ ttlMs: 60_000, maxEntries: 10 }));
        s.use((_context, next) => (listed++, next()), { methods: ['tools/list'] });
      });
      const alice = await connect(kind, 'alice');
      const bob = await connect(kind, 'bob');
      const once = first(await alice.callTool('lookup', { key: 'k' }));
      expect(first(await alice.callTool('lookup', { key: 'k' }))).toBe(once);
      expect(first(await bob.callTool('lookup', { key: 'k' }))).not.toBe(once); // per principal
      expect(first(await alice.callTool('lookup', { key: 'other' }))).not.toBe(once); // per params
      const wrote = first(await alice.callTool('write', { key: 'k' }));
      expect(first(await alice.callTool('write', { key: 'k' }))).not.toBe(wrote); // not read-only: never cached

      listed = 0;
      expect(await alice.toolNames()).toEqual(['lookup', 'write']);
      expect(await alice.toolNames()).toEqual(['lookup', 'write']);
      expect(listed).toBe(1); // the second listing came from the cache
      server.disableTool('write');
      await alice.toolsChanged.waitFor(1);
      expect(await alice.toolNames()).toEqual(['lookup']);
      server.disableTool('lookup'); // a cached answer of a disabled tool is not served
      await alice.toolsChanged.waitFor(2);
      await expect(alice.callTool('lookup', { key: 'k' })).rejects.toThrow(/disabled/);
    });
  }
});

describe('auditLog()', () => {
  it('records method, tool, principal, outcome and duration of every request it sees', async () => {
    const entries: AuditEntry[] = [];
    const { connect } = await httpServer((server) => {
      server.use(auditLog({ onEntry: (entry) => entries.push(entry) }));
      server.use(rateLimit({ points: 1, durationMs: 60_000 }), { tools: ['write'] });
    });
    const client = await connect('v2-legacy', 'dave');
    await client.callTool('lookup', { key: 'k' });
    await client.callTool('write', { key: 'k' });
    await client.callTool('write', { key: 'k' });
    await client.readResource('memo://missing').catch(() => {});
    const calls = entries.filter((entry) => entry.method !== 'tools/list');
    expect(calls).toEqual([
      expect.objectContaining({ method: 'tools/call', tool: 'lookup', principal: 'principal:dave', outcome: 'ok' }),
      expect.objectContaining({ method: 'tools/call', tool: 'write', outcome: 'ok', era: 'legacy', transport: 'http' }),
      expect.objectContaining({
        method: 'tools/call',
        tool: 'write',
        outcome: 'tool-error',
        error: expect.stringContaining('Rate limit reached'),
      }),
      expect.objectContaining({ method: 'resources/read', outcome: 'error', errorCode: -32602 }),
    ]);
    for (const entry of calls) {
      expect(entry.durationMs).toBeGreaterThanOrEqual(0);
      expect(entry.sessionId).toBeTypeOf('string');
    }
  });
});

describe('the built-ins in a stdio child process', () => {
  const FIXTURE = fileURLToPath(new URL('../fixtures/built-ins-stdio-fixture.mjs', import.meta.url));
  for (const kind of CLIENT_KINDS) {
    it(`limit, cache and audit over stdio, logs on stderr only (${kind})`, { timeout: 30_000 }, async () => {
      const params = { command: process.execPath, args: [FIXTURE], stderr: 'pipe' as const };
      const transport = kind === 'v1' ? new StdioV1(params) : new StdioV2(params);
      let stderr = '';
      (transport.stderr as Readable).on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const client = await connectClient(kind, transport);
      closers.push(() => client.close());
      const once = first(await client.callTool('lookup', { key: 'k' }));
      expect(first(await client.callTool('lookup', { key: 'k' }))).toBe(once);
      expect((await client.callTool('write')).isError).toBeFalsy();
      expect((await client.callTool('write')).isError).toBeFalsy();
      const refused = await client.callTool('write');
      expect(refused.isError).toBe(true);
      expect(first(refused)).toMatch(/^Rate limit reached for tool "write" \(2 per 60 s\); try again in \d+ s\.$/);
      await new Promise((resolve) => setTimeout(resolve, 200)); // let the last log lines arrive
      const audits = stderr
        .split('\n')
        .filter((line) => line.includes('"audit"'))
        .map((line) => JSON.parse(line).audit as AuditEntry);
      const calls = audits.filter((entry) => entry.method === 'tools/call');
      expect(calls.map((entry) => `${entry.tool} ${entry.outcome}`)).toEqual([
        'lookup ok',
        'lookup ok',
        'write ok',
        'write ok',
        'write tool-error',
      ]);
      expect(calls[0]).toMatchObject({ transport: 'stdio', era: kind === 'v2-modern' ? 'modern' : 'legacy' });
    });
  }
});
