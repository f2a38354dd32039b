// MCP tasks on 2026-07-28 (the tasks extension, SEP-2663) over real HTTP with raw requests, the
// way the conformance suite drives them: task handles, DetailedTask polling, tool errors vs
// protocol errors, cancel, TTL expiry, input through tasks/update, principals, bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolCallAbortedError } from '../../src/errors.js';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { postModern, startServer } from '../e2e/http-helpers.js';
import { askTool, protocolErrorTool, sleep as baseSleep, slowTool } from './task-tools.js';

const EXT = 'io.modelcontextprotocol/tasks';
const OPTED_IN = { elicitation: {}, extensions: { [EXT]: {} } };

let server: HttpMcpServer;
let id = 0;
const aborts: string[] = [];

const sleep = (ms: number, signal?: AbortSignal) =>
  baseSleep(ms, signal, (reason) => aborts.push((reason as ToolCallAbortedError).reason));

interface Rpc {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: { requiredCapabilities?: { extensions?: Record<string, unknown> } } };
}
interface WireTask extends Record<string, unknown> {
  taskId: string;
  status: string;
  inputRequests?: Record<string, unknown>;
}

/** One 2026-07-28 request as `token`'s client; `capabilities` go in the request's `_meta`. */
async function rpc(method: string, params: Record<string, unknown>, capabilities: object = OPTED_IN, token = 'alice') {
  const { status, message } = await postModern(server.address.url, { id: ++id, method, params }, capabilities, {
    Authorization: `Bearer ${token}`,
  });
  return { status, ...message } as Rpc;
}

async function until(taskId: string, done: (task: WireTask) => boolean, token = 'alice'): Promise<WireTask> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const result = (await rpc('tasks/get', { taskId }, OPTED_IN, token)).result as WireTask | undefined;
    if (result && done(result)) return result;
    if (Date.now() > deadline) throw new Error(`task ${taskId} never matched; last ${JSON.stringify(result)}`);
    await sleep(50);
  }
}
const terminal = (task: WireTask) => ['completed', 'failed', 'cancelled'].includes(task.status);

beforeAll(async () => {
  server = await startServer({
    authenticate: (req) => {
      const token = req.headers.authorization?.replace(/^Bearer /, '');
      return token ? { token, clientId: token, scopes: [] } : undefined;
    },
    tasks: { maxTtlMs: 60_000, sweepIntervalMs: 50, pollIntervalMs: 200, maxTasksPerPrincipal: 20 },
  });
  server.registerTool(slowTool((reason) => aborts.push((reason as ToolCallAbortedError).reason)));
  server.registerTool(
    defineTool({
      name: 'tool_error',
      taskSupport: 'required',
      execute: () => {
        throw new Error('bad input file');
      },
    }),
  );
  server.registerTool(protocolErrorTool('protocol_error', 'optional', 'backend gone'));
  server.registerTool(askTool());
}, 30_000);
afterAll(() => server?.stop());

describe('2026-07-28 tasks extension over HTTP', () => {
  it('lists no execution.taskSupport: the 2026-07-28 Tool has no `execution` (the extension capability is the handshake)', async () => {
    const tools = (await rpc('tools/list', {})).result?.tools as Array<Record<string, unknown>>;
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['slow', 'tool_error', 'protocol_error']));
    for (const tool of tools) expect(tool).not.toHaveProperty('execution');
  });

  it('answers at once with a task, reports progress while working, then inlines the direct-call result', async () => {
    const direct = await rpc('tools/call', { name: 'slow', arguments: { ms: 3000 } }, { elicitation: {} });
    expect(direct.result?.resultType).toBe('complete');
    const started = Date.now();
    const created = await rpc('tools/call', { name: 'slow', arguments: { ms: 3000 } });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000, pollIntervalMs: 200 });
    expect(created.result).not.toHaveProperty('task');
    expect(created.result).not.toHaveProperty('ttl');
    const taskId = created.result!.taskId as string;
    expect(taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const working = await rpc('tasks/get', { taskId });
    expect(working.result).toMatchObject({
      resultType: 'complete',
      taskId,
      status: 'working',
      statusMessage: 'half way',
    });
    const done = await until(taskId, terminal);
    expect(done.status).toBe('completed');
    const { resultType: _a, _meta: _b, ...directResult } = direct.result!;
    expect(done.result).toMatchObject(directResult);
  }, 20_000);

  it('reports a tool error as completed with isError, and a protocol error as failed', async () => {
    const toolError = await rpc('tools/call', { name: 'tool_error', arguments: {} });
    const done = await until(toolError.result!.taskId as string, terminal);
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ isError: true });
    const protocol = await rpc('tools/call', { name: 'protocol_error', arguments: {} });
    const failed = await until(protocol.result!.taskId as string, terminal);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: -32603, message: 'backend gone' });
    expect(failed).not.toHaveProperty('result');
  });

  it('cancels (the tool sees reason "cancelled"), idempotently', async () => {
    const created = await rpc('tools/call', { name: 'slow', arguments: { ms: 60_000 } });
    const taskId = created.result!.taskId as string;
    await sleep(50);
    const ack = await rpc('tasks/cancel', { taskId });
    expect(ack.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect(ack.result).not.toHaveProperty('status');
    expect((await until(taskId, terminal)).status).toBe('cancelled');
    expect(aborts).toContain('cancelled');
    expect((await rpc('tasks/cancel', { taskId })).result?.resultType).toBe('complete');
  });

  it('round-trips an elicitation through input_required and tasks/update', async () => {
    const created = await rpc('tools/call', { name: 'ask', arguments: {} });
    const taskId = created.result!.taskId as string;
    const asking = await until(taskId, (t) => t.status === 'input_required');
    expect(asking.inputRequests?.who).toMatchObject({ method: 'elicitation/create' });
    const ack = await rpc('tasks/update', {
      taskId,
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(ack.error).toBeUndefined();
    expect(ack.result?.resultType).toBe('complete');
    const done = await until(taskId, terminal);
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] });
  });

  it('hides a task from another principal: get, update and cancel answer "not found"', async () => {
    const created = await rpc('tools/call', { name: 'slow', arguments: { ms: 2000 } });
    const taskId = created.result!.taskId as string;
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/cancel', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
    ] as const) {
      const other = await rpc(method, params, OPTED_IN, 'mallory');
      expect(other.error?.code, method).toBe(-32602);
    }
    expect((await rpc('tasks/get', { taskId })).result?.status).toBe('working');
    const unknown = await rpc('tasks/get', { taskId: 'no-such-task' }, OPTED_IN, 'mallory');
    expect(unknown.error?.message).toBe(
      (await rpc('tasks/get', { taskId }, OPTED_IN, 'mallory')).error?.message.replace(taskId, 'no-such-task'),
    );
  });

  it('answers bad input with the spec errors while other tasks keep running', async () => {
    const running = await rpc('tools/call', { name: 'slow', arguments: { ms: 1500 } });
    expect((await rpc('tasks/get', { taskId: 'nope' })).error?.code).toBe(-32602);
    expect((await rpc('tasks/get', {})).error?.code).toBe(-32602);
    expect((await rpc('tasks/update', { taskId: 'x', inputResponses: 5 })).error?.code).toBe(-32602);
    const notOptedIn = await rpc('tasks/get', { taskId: running.result!.taskId }, { elicitation: {} });
    expect(notOptedIn.error?.code).toBe(-32021);
    const required = await rpc('tools/call', { name: 'tool_error', arguments: {} }, {});
    expect(required.error?.code).toBe(-32021);
    expect(required.error?.data?.requiredCapabilities?.extensions?.[EXT]).toEqual({});
    expect((await rpc('tasks/list', {})).error?.code).toBe(-32601);
    expect((await rpc('tasks/result', { taskId: 'x' })).error?.code).toBe(-32601);
    expect((await until(running.result!.taskId as string, terminal)).status).toBe('completed');
  });

  it('enforces the per-principal limit with a clear error', async () => {
    const ids: string[] = [];
    let refused: Rpc | undefined;
    for (let i = 0; i < 21 && !refused; i++) {
      const r = await rpc('tools/call', { name: 'slow', arguments: { ms: 30_000 } }, OPTED_IN, 'busy');
      if (r.error) refused = r;
      else ids.push(r.result!.taskId as string);
    }
    expect(ids).toHaveLength(20);
    expect(refused?.error?.message).toMatch(/at most 20/);
    for (const taskId of ids) await rpc('tasks/cancel', { taskId }, OPTED_IN, 'busy');
    const after = await rpc('tools/call', { name: 'slow', arguments: { ms: 1 } }, OPTED_IN, 'busy');
    expect(after.result?.resultType).toBe('task');
  });
});

describe('TTL expiry', () => {
  it('aborts the work with reason "timeout" and forgets the task', async () => {
    const short = await startServer({ tasks: { defaultTtlMs: 300, sweepIntervalMs: 50 } });
    const seen: string[] = [];
    short.registerTool(
      defineTool({
        name: 'forever',
        taskSupport: 'optional',
        execute: (_args, context) =>
          new Promise((_resolve, reject) =>
            context.signal.addEventListener('abort', () => {
              seen.push((context.signal.reason as ToolCallAbortedError).reason);
              reject(context.signal.reason as Error);
            }),
          ),
      }),
    );
    try {
      const previous = server;
      server = short;
      const created = await rpc('tools/call', { name: 'forever', arguments: {} });
      expect(created.result?.ttlMs).toBe(300);
      const taskId = created.result!.taskId as string;
      expect((await rpc('tasks/get', { taskId })).result?.status).toBe('working');
      await sleep(600);
      expect((await rpc('tasks/get', { taskId })).error?.code).toBe(-32602);
      expect(seen).toEqual(['timeout']);
      server = previous;
    } finally {
      await short.stop();
    }
  });
});
