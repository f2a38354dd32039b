// sdk-internals/stdio-tools-call.ts against the SDK's own dispatch: the same stdio session, run once
// with the plain tools/call dispatch and once with it off (the SDK's Protocol._onrequest, after
// serveStdio's queue), must write the same bytes to stdout, request by request: results, errors,
// notifications, server->client requests.
import { PassThrough } from 'node:stream';
import { Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UserError } from '../../src/errors.js';
import { setStdioToolsCallDispatch, stdioToolsCallApplies } from '../../src/mcp/sdk-internals/stdio-tools-call.js';
import { StdioMcpServer } from '../../src/mcp/stdio-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { MODERN_META } from '../support/raw-stdio.js';
import { silentLogger } from '../support/in-memory.js';

type Message = Record<string, unknown>;

/** What the tools saw (the same on both paths). */
let seen: string[] = [];

function tools() {
  const text = z.object({ text: z.string() });
  const pending = (signal: AbortSignal) =>
    new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('aborted'), { once: true }));
  return [
    defineTool({ name: 'echo', description: 'echo', inputSchema: text, execute: ({ text }) => text }),
    defineTool({ name: 'async_echo', description: 'echo', inputSchema: text, execute: async ({ text }) => text }),
    defineTool({ name: 'disabled', description: 'off', inputSchema: text, execute: ({ text }) => text }),
    defineTool({
      name: 'boom',
      description: 'throws',
      inputSchema: z.object({}),
      execute: () => {
        throw new Error('kaput');
      },
    }),
    defineTool({
      name: 'user_error',
      description: 'throws',
      inputSchema: z.object({}),
      execute: async () => {
        throw new UserError('say it differently');
      },
    }),
    defineTool({
      name: 'structured',
      description: 'object',
      inputSchema: z.object({}),
      outputSchema: z.object({ n: z.number() }),
      execute: () => ({ n: 1 }),
    }),
    defineTool({
      name: 'wait',
      description: 'until cancelled',
      inputSchema: z.object({}),
      execute: async (_args, context) => {
        const outcome = await pending(context.signal);
        seen.push(`wait ${outcome} ${String(context.signal.reason)}`);
        return outcome;
      },
    }),
    defineTool({
      name: 'chatty',
      description: 'progress, logs',
      inputSchema: z.object({}),
      execute: async (_args, context) => {
        await context.reportProgress({ progress: 1, total: 2, message: 'half' });
        context.log.warn('careful', { at: 1 });
        return 'done';
      },
    }),
    defineTool({
      name: 'ask',
      description: 'elicits and samples',
      inputSchema: z.object({}),
      execute: async (_args, context) => {
        const answer = await context.elicit({ message: 'name?', requestedSchema: z.object({ name: z.string() }) });
        const sampled = await context.sample({ messages: [], maxTokens: 5 });
        return JSON.stringify([answer, sampled]);
      },
    }),
  ];
}

/** One StdioMcpServer on in-process pipes; every stdout line kept as written; client requests answered. */
class Session {
  readonly lines: string[] = [];
  readonly server: StdioMcpServer;
  readonly #stdin = new PassThrough();
  #buffer = '';

  constructor(middleware: boolean) {
    this.server = new StdioMcpServer(
      { name: 'same', version: '1.0.0' },
      { logger: silentLogger(), stdin: this.#stdin, stdout: this.#stdout() },
    );
    for (const tool of tools()) this.server.registerTool(tool);
    this.server.disableTool('disabled');
    if (middleware) {
      // What a stage sees of the SDK's context: the same keys, in the same order, on both paths.
      this.server.use(async (context, next) => {
        seen.push(`${Object.keys(context.sdk.mcpReq).join()} ${context.signal.aborted}`);
        return next();
      });
    }
  }

  #stdout(): PassThrough {
    const stdout = new PassThrough();
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let newline: number;
      while ((newline = this.#buffer.indexOf('\n')) >= 0) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        this.lines.push(line);
        this.#answer(JSON.parse(line) as Message);
      }
    });
    return stdout;
  }

  /** Answers the server's own requests (elicitation, sampling) as a client would. */
  #answer(message: Message): void {
    if (message.method === 'elicitation/create') {
      this.send({ jsonrpc: '2.0', id: message.id, result: { action: 'accept', content: { name: 'Ada' } } });
    } else if (message.method === 'sampling/createMessage') {
      const result = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
      this.send({ jsonrpc: '2.0', id: message.id, result });
    }
  }

  send(message: unknown): void {
    this.#stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  async open(modern: boolean): Promise<void> {
    await this.server.start();
    if (modern) return;
    const capabilities = { elicitation: {}, sampling: {} };
    const clientInfo = { name: 'c', version: '1' };
    this.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Waits until a response with `id` was written (a ping after it flushes what is pending). */
  async until(id: unknown): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!this.lines.some((line) => (JSON.parse(line) as Message).id === id && !('method' in JSON.parse(line)))) {
      if (Date.now() > deadline) throw new Error(`no answer to ${String(id)}: ${this.lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async close(): Promise<void> {
    this.#stdin.end();
    await this.server.stop();
  }
}

const call = (id: number | string, params: unknown, extra: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
  ...extra,
});

/** Several messages written at once (one stdin chunk). */
const oneWrite = (...messages: unknown[]) => messages.map((message) => JSON.stringify(message)).join('\n');

/** Each case: the messages sent after the handshake, and the id whose answer ends it. */
const cases: Array<{
  name: string;
  modern?: boolean;
  middleware?: boolean;
  /** Requests written together: their answers may come in another order (JSON-RPC matches them by id). */
  pipelined?: boolean;
  send: unknown[];
  last: number | string;
}> = [
  { name: 'plain call', send: [call(1, { name: 'echo', arguments: { text: 'hi' } })], last: 1 },
  { name: 'string id, async tool', send: [call('a', { name: 'async_echo', arguments: { text: 'x' } })], last: 'a' },
  { name: 'unknown tool', send: [call(1, { name: 'nope', arguments: {} })], last: 1 },
  { name: 'disabled tool', send: [call(1, { name: 'disabled', arguments: { text: 'x' } })], last: 1 },
  { name: 'bad arguments', send: [call(1, { name: 'echo', arguments: { text: 5 } })], last: 1 },
  { name: 'no arguments', send: [call(1, { name: 'echo' })], last: 1 },
  { name: 'invalid params (no name)', send: [call(1, { arguments: {} })], last: 1 },
  { name: 'arguments not an object', send: [call(1, { name: 'echo', arguments: 'x' })], last: 1 },
  { name: 'tool throws', send: [call(1, { name: 'boom', arguments: {} })], last: 1 },
  { name: 'tool throws UserError', send: [call(1, { name: 'user_error', arguments: {} })], last: 1 },
  { name: 'structured output', send: [call(1, { name: 'structured', arguments: {} })], last: 1 },
  { name: 'extra params key', send: [call(1, { name: 'echo', arguments: { text: 'x' }, zz: 1 })], last: 1 },
  { name: 'lone surrogate', send: [call(1, { name: 'echo', arguments: { text: 'a\ud800b' } })], last: 1 },
  {
    name: 'progress and log',
    send: [
      { jsonrpc: '2.0', id: 9, method: 'logging/setLevel', params: { level: 'info' } },
      call(1, { name: 'chatty', arguments: {}, _meta: { progressToken: 'p1' } }),
    ],
    last: 1,
  },
  { name: 'elicitation and sampling', send: [call(1, { name: 'ask', arguments: {} })], last: 1 },
  {
    name: 'cancelled',
    send: [
      call(1, { name: 'wait', arguments: {} }),
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'enough' } },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ],
    last: 2,
  },
  { name: 'task-augmented (SDK path)', send: [call(1, { name: 'echo', arguments: { text: 'x' }, task: {} })], last: 1 },
  {
    name: '2026-07-28 (SDK path)',
    modern: true,
    send: [call(1, { name: 'echo', arguments: { text: 'x' }, _meta: MODERN_META })],
    last: 1,
  },
  {
    name: 'two calls in one write',
    pipelined: true,
    send: [oneWrite(call(1, { name: 'echo', arguments: { text: 'a' } }), call(2, { name: 'echo', arguments: {} }))],
    last: 2,
  },
  {
    name: 'calls queued behind other messages in one write',
    pipelined: true,
    send: [
      oneWrite(
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
        call(3, { name: 'echo', arguments: { text: 'c' } }),
        { jsonrpc: '2.0', id: 4, method: 'tools/list' },
        call(5, { name: 'nope', arguments: {} }),
      ),
    ],
    last: 5,
  },
  {
    name: 'a middleware reading the SDK context',
    middleware: true,
    send: [call(1, { name: 'echo', arguments: { text: 'x' } })],
    last: 1,
  },
];

/** The stdout lines of one case, and how many tools/call requests reached the SDK's `_onrequest`. */
async function run(testCase: (typeof cases)[number], dispatch: boolean) {
  setStdioToolsCallDispatch(dispatch);
  seen = [];
  const proto = Server.prototype as unknown as Record<string, unknown>;
  const own = Object.getOwnPropertyDescriptor(proto, '_onrequest');
  const sdkOnrequest = proto._onrequest as (this: unknown, request: Message, extra: unknown) => void;
  let sdkCalls = 0;
  proto._onrequest = function (this: unknown, request: Message, extra: unknown) {
    if (request.method === 'tools/call') sdkCalls += 1;
    sdkOnrequest.call(this, request, extra);
  };
  const session = new Session(testCase.middleware === true);
  try {
    await session.open(testCase.modern === true);
    if (!testCase.modern) await session.until(0);
    for (const message of testCase.send) session.send(message);
    await session.until(testCase.last);
    return { lines: session.lines, seen, sdkCalls };
  } finally {
    if (own) Object.defineProperty(proto, '_onrequest', own);
    else delete proto._onrequest;
    await session.close();
  }
}

describe('stdio tools/call dispatch', () => {
  afterEach(() => setStdioToolsCallDispatch(true));

  it('applies to the installed SDK', () => {
    const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
    expect(stdioToolsCallApplies(server)).toBe(true);
  });

  for (const testCase of cases) {
    it(`writes what the SDK writes: ${testCase.name}`, async () => {
      const sdk = await run(testCase, false);
      const ours = await run(testCase, true);
      // Pipelined answers: the same lines; a shorter path may answer a later request first.
      const order = (lines: string[]) => (testCase.pipelined ? [...lines].sort() : lines);
      expect(order(ours.lines)).toEqual(order(sdk.lines));
      expect(ours.seen).toEqual(sdk.seen);
      expect(sdk.sdkCalls).toBeGreaterThan(0);
      const fallsBack = testCase.modern === true || testCase.name.includes('SDK path');
      expect(ours.sdkCalls).toBe(fallsBack ? sdk.sdkCalls : 0);
    });
  }
});
