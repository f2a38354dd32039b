import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolCallAbortedError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/tool.js';
import { clientOptions, InMemoryServer } from '../support/in-memory.js';

const eras = ['legacy', 'modern'] as const;
let server: InMemoryServer;
afterEach(() => server?.stop());

function text(result: { content: unknown }) {
  return (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');
}

describe.each(eras)('tool context on the %s era', (era) => {
  it('reports progress with the client token, and is a no-op without one', async () => {
    server = new InMemoryServer();
    server.registerTool(
      defineTool({
        name: 'work',
        execute: async (_args, context) => {
          for (let step = 1; step <= 3; step += 1)
            await context.reportProgress({ progress: step, total: 3, message: `step ${step}` });
          return 'done';
        },
      }),
    );
    const client = await server.connect(era);
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await client.callTool({ name: 'work', arguments: {} }, { onprogress: (p) => seen.push(p) });
    expect(text(result)).toBe('done');
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(seen[2]).toMatchObject({ total: 3, message: 'step 3' });
    expect(text(await client.callTool({ name: 'work', arguments: {} }))).toBe('done');
  });

  it('methods and accessors work when destructured; a spread copies the plain fields', async () => {
    server = new InMemoryServer();
    let seen: Record<string, unknown> = {};
    server.registerTool(
      defineTool({
        name: 'destructure',
        execute: async (_args, context) => {
          const { reportProgress, log, signal, era, requestId } = context;
          await reportProgress({ progress: 1, total: 1 });
          log.info('destructured');
          const spread = { ...context };
          // Middleware may wrap the context: accessors read through a Proxy or a derived object too.
          const wrapped = new Proxy(context, {});
          const derived = Object.create(context) as typeof context;
          wrapped.log.debug('through a proxy');
          if (wrapped.signal.aborted || derived.signal.aborted || typeof derived.elicit !== 'function') return 'bad';
          seen = {
            aborted: signal.aborted,
            era,
            requestId,
            spreadEra: spread.era,
            same: context.elicit === context.elicit,
          };
          return 'ok';
        },
      }),
    );
    const client = await server.connect(era);
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'destructure', arguments: {} },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(text(result)).toBe('ok');
    expect(progress).toEqual([1]);
    expect(seen).toMatchObject({ aborted: false, era, spreadEra: era, same: true });
    expect(seen.requestId).toBeDefined();
  });

  it('aborts the signal with reason "timeout" and answers a clear tool error', async () => {
    server = new InMemoryServer();
    let reason: unknown;
    server.registerTool(
      defineTool({
        name: 'hang',
        timeoutMs: 100,
        execute: (_args, context) =>
          new Promise(() => context.signal.addEventListener('abort', () => (reason = context.signal.reason))),
      }),
    );
    const client = await server.connect(era);
    const result = await client.callTool({ name: 'hang', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('timed out after 100 ms');
    expect(reason).toBeInstanceOf(ToolCallAbortedError);
    expect((reason as ToolCallAbortedError).reason).toBe('timeout');
  });

  it('aborts the signal with reason "cancelled" when the client cancels', async () => {
    server = new InMemoryServer();
    let resolveReason!: (value: unknown) => void;
    const reason = new Promise((resolve) => (resolveReason = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    server.registerTool(
      defineTool({
        name: 'long',
        execute: (_args, context) =>
          new Promise(() => {
            context.signal.addEventListener('abort', () => resolveReason(context.signal.reason));
            started();
          }),
      }),
    );
    const client = await server.connect(era);
    const controller = new AbortController();
    const call = client.callTool({ name: 'long', arguments: {} }, { signal: controller.signal });
    await running;
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow();
    expect(((await reason) as ToolCallAbortedError).reason).toBe('cancelled');
  });

  it('validates structured output: valid passes, invalid becomes a tool error', async () => {
    server = new InMemoryServer();
    const outputSchema = z.object({ total: z.number() });
    server.registerTool(defineTool({ name: 'good', outputSchema, execute: () => ({ total: 3 }) }));
    // @ts-expect-error defineTool types execute's result from outputSchema; this checks the runtime guard too.
    server.registerTool(defineTool({ name: 'bad', outputSchema, execute: () => ({ total: 'three' }) }));
    const client = await server.connect(era);
    const good = await client.callTool({ name: 'good', arguments: {} });
    expect(good.structuredContent).toEqual({ total: 3 });
    const bad = await client.callTool({ name: 'bad', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/does not match its outputSchema.*total/);
  });

  it.each([
    ['accept', { action: 'accept', content: { name: 'Ada' } }, 'Hello Ada'],
    ['decline', { action: 'decline' }, 'declined'],
    ['cancel', { action: 'cancel' }, 'cancelled'],
  ] as const)('elicitation: %s', async (_label, answer, expected) => {
    server = new InMemoryServer();
    server.registerTool(
      defineTool({
        name: 'greet',
        execute: async (_args, context) => {
          const reply = await context.elicit({
            message: 'Your name?',
            requestedSchema: z.object({ name: z.string() }),
          });
          if (reply.action === 'accept') return `Hello ${String(reply.content?.name)}`;
          return reply.action === 'decline' ? 'declined' : 'cancelled';
        },
      }),
    );
    const client = new Client(
      { name: 'unit', version: '1' },
      clientOptions(era, { capabilities: { elicitation: {} } }),
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(String(request.params.message));
      return answer as never;
    });
    await server.connect(era, client);
    expect(text(await client.callTool({ name: 'greet', arguments: {} }))).toBe(expected);
    expect(asked).toEqual(['Your name?']);
  });

  it('sampling asks the client model and returns its answer', async () => {
    server = new InMemoryServer();
    server.registerTool(
      defineTool({
        name: 'summarize',
        execute: async (_args, context) => {
          const reply = await context.sample({
            messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: MCP' } }],
            maxTokens: 50,
          });
          return `model said: ${(reply.content as { text: string }).text}`;
        },
      }),
    );
    const client = new Client({ name: 'unit', version: '1' }, clientOptions(era, { capabilities: { sampling: {} } }));
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: 'a protocol' },
    }));
    await server.connect(era, client);
    expect(text(await client.callTool({ name: 'summarize', arguments: {} }))).toBe('model said: a protocol');
  });

  it('elicit without the client capability is a clear tool error', async () => {
    server = new InMemoryServer();
    server.registerTool(
      defineTool({
        name: 'ask',
        execute: (_args, context) =>
          context.elicit({ message: 'x', requestedSchema: z.object({ a: z.string() }) }).then(() => 'ok'),
      }),
    );
    const client = await server.connect(era);
    if (era === 'legacy') {
      const result = await client.callTool({ name: 'ask', arguments: {} });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('"elicitation" capability');
    } else {
      // 2026-07-28: MissingRequiredClientCapabilityError naming the capability.
      await expect(client.callTool({ name: 'ask', arguments: {} })).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { elicitation: {} } },
      });
    }
  });

  it('a prompt can elicit through its context as a tool does', async () => {
    server = new InMemoryServer();
    server.registerPrompt({
      name: 'personal',
      load: async (_args, context) => {
        const reply = await context.elicit({ message: 'Topic?', requestedSchema: z.object({ topic: z.string() }) });
        return `Write about ${String(reply.content?.topic)}`;
      },
    });
    const client = new Client(
      { name: 'unit', version: '1' },
      clientOptions(era, { capabilities: { elicitation: {} } }),
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { topic: 'MCP' } }));
    await server.connect(era, client);
    const result = await client.getPrompt({ name: 'personal' });
    expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Write about MCP' } }]);
  });

  it('listRoots asks the client for its roots', async () => {
    server = new InMemoryServer();
    server.registerTool(
      defineTool({
        name: 'roots',
        execute: async (_args, context) => (await context.listRoots()).roots.map((root) => root.uri).join(','),
      }),
    );
    const client = new Client({ name: 'unit', version: '1' }, clientOptions(era, { capabilities: { roots: {} } }));
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] }));
    await server.connect(era, client);
    expect(text(await client.callTool({ name: 'roots', arguments: {} }))).toBe('file:///a,file:///b');
  });

  it('passes era, request id and client info to the tool', async () => {
    server = new InMemoryServer();
    let seen: unknown;
    server.registerTool(
      defineTool({
        name: 'who',
        execute: (_args, context) => {
          seen = { era: context.era, id: context.requestId, client: context.clientInfo?.name };
          return 'ok';
        },
      }),
    );
    const client = await server.connect(era);
    await client.callTool({ name: 'who', arguments: {} });
    expect(seen).toMatchObject({ era, client: 'unit' });
    expect((seen as { id: unknown }).id).toBeDefined();
  });
});

describe('logging', () => {
  it('honours the level the legacy client set with logging/setLevel', async () => {
    server = new InMemoryServer();
    server.registerTool(
      defineTool({
        name: 'chatty',
        execute: (_args, context) => {
          context.log.debug('debug line');
          context.log.info('info line');
          context.log.error('error line', { code: 7 });
          return 'ok';
        },
      }),
    );
    const client = await server.connect('legacy');
    const got: unknown[] = [];
    client.setNotificationHandler('notifications/message', async (n) => void got.push(n.params));
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'chatty', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(got).toEqual([
      expect.objectContaining({ level: 'error', data: { message: 'error line', data: { code: 7 } } }),
    ]);
  });
});
