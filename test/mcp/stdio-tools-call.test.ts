// sdk-internals/stdio-tools-call.ts against the SDK's own dispatch: the same stdio session, run once
// with the plain tools/call dispatch and once with it off (the SDK's Protocol._onrequest, after
// serveStdio's queue), must write the same bytes to stdout, request by request: results, errors,
// notifications, server->client requests.
// On 2025-11-25 (after an initialize) and on 2026-07-28 (a `_meta` envelope on every request; the
// dispatch also takes tools/call past serveStdio's queue there, `stdio-channel.ts`).
import { PassThrough } from 'node:stream';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  Server,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/server';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { UserError } from '../../src/errors.js';
import { stdioQueueBypassProbe } from '../../src/mcp/sdk-internals/stdio-channel.js';
import { modernToolsCallMismatch } from '../../src/mcp/sdk-internals/modern-envelope.js';
import {
  modernStdioToolsCallProbe,
  setStdioToolsCallDispatch,
  stdioToolsCallApplies,
} from '../../src/mcp/sdk-internals/stdio-tools-call.js';
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
      name: 'with_meta',
      description: 'a result with _meta',
      inputSchema: z.object({}),
      execute: () => ({ content: [{ type: 'text' as const, text: 'm' }], _meta: { 'x.test/k': 1 } }),
    }),
    defineTool({
      name: 'wait',
      description: 'until cancelled',
      inputSchema: z.object({}),
      execute: async (_args, context) => {
        seen.push('wait started');
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
      // A fixed key: a 2026-07-28 input-required answer's sealed requestState is then the same on both paths.
      { logger: silentLogger(), stdin: this.#stdin, stdout: this.#stdout(), requestStateKey: 'k'.repeat(32) },
    );
    for (const tool of tools()) this.server.registerTool(tool);
    this.server.disableTool('disabled');
    if (middleware) {
      // What a stage sees of the SDK's context: the same keys, in the same order, on both paths.
      this.server.use(async (context, next) => {
        const { mcpReq } = context.sdk;
        seen.push(`${Object.keys(mcpReq).join()} ${JSON.stringify([mcpReq._meta, mcpReq.envelope])}`);
        seen.push(`${context.signal.aborted}`);
        if (context.toolName === 'changes_its_envelope') {
          (mcpReq.envelope as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY] = 5;
        }
        if (context.toolName === 'url_from_stage') {
          throw new UrlElicitationRequiredError([
            { mode: 'url', elicitationId: 'e', url: 'https://x.test', message: 'm' },
          ]);
        }
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
    if (modern) {
      // The opening message pins the era (the SDK delivers it with its classification: its own path).
      this.send({ jsonrpc: '2.0', id: 0, method: 'tools/list', params: { _meta: MODERN_META } });
      return;
    }
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
    await this.waitFor(
      () => this.lines.some((line) => (JSON.parse(line) as Message).id === id && !('method' in JSON.parse(line))),
      `no answer to ${String(id)}`,
    );
  }

  /** Polls `done` (not on `Date.now`: some cases fix that clock). */
  async waitFor(done: () => boolean, what: string): Promise<void> {
    const deadline = performance.now() + 5_000;
    while (!done()) {
      if (performance.now() > deadline) throw new Error(`${what}: ${this.lines.join('\n')}`);
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

interface Case {
  name: string;
  /** 2026-07-28: no handshake; the session opens with a `tools/list` (id 0) that pins the era. */
  modern?: boolean;
  middleware?: boolean;
  /** Requests written together: their answers may come in another order (JSON-RPC matches them by id). */
  pipelined?: boolean;
  /** Every tools/call takes the SDK's `_onrequest` with the dispatch on too (a number: that many; else none does). */
  sdkPath?: boolean | number;
  /** `Date.now()` fixed while it runs (a sealed requestState carries an expiry). */
  clock?: boolean;
  /** Messages, each written as it is; an {@link Pause} waits before the next one is written. */
  send: unknown[];
  /** The id whose answer ends the case; or `close`: the session is closed once `seen` has `closeAfter`. */
  last: number | string | { close: string };
}

/** In a case's `send`: wait for the answer to `answered`, or until the tools `saw` something, before writing on. */
class Pause {
  constructor(readonly until: { answered: number | string } | { saw: string } | { acknowledged: string }) {}
}
const answered = (id: number | string) => new Pause({ answered: id });

/** Each case: the messages sent after the handshake, and the id whose answer ends it. */
/** One `tools/call` each, the same params in both eras: the case's name, and the params. */
const SINGLE_CALLS: ReadonlyArray<[name: string, params: Record<string, unknown>]> = [
  ['unknown tool', { name: 'nope', arguments: {} }],
  ['disabled tool', { name: 'disabled', arguments: { text: 'x' } }],
  ['bad arguments', { name: 'echo', arguments: { text: 5 } }],
  ['invalid params (no name)', { arguments: {} }],
  ['arguments not an object', { name: 'echo', arguments: 'x' }],
  ['tool throws UserError', { name: 'user_error', arguments: {} }],
  ['structured output', { name: 'structured', arguments: {} }],
  ['a result with _meta', { name: 'with_meta', arguments: {} }],
  ['lone surrogate', { name: 'echo', arguments: { text: 'a\ud800b' } }],
];

const cases: Case[] = [
  { name: 'plain call', send: [call(1, { name: 'echo', arguments: { text: 'hi' } })], last: 1 },
  { name: 'string id, async tool', send: [call('a', { name: 'async_echo', arguments: { text: 'x' } })], last: 'a' },
  ...SINGLE_CALLS.map(([name, params]): Case => ({ name, send: [call(1, params)], last: 1 })),
  { name: 'no arguments', send: [call(1, { name: 'echo' })], last: 1 },
  { name: 'tool throws', send: [call(1, { name: 'boom', arguments: {} })], last: 1 },
  { name: 'extra params key', send: [call(1, { name: 'echo', arguments: { text: 'x' }, zz: 1 })], last: 1 },
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
  {
    name: 'task-augmented (SDK path)',
    sdkPath: true,
    send: [call(1, { name: 'echo', arguments: { text: 'x' }, task: {} })],
    last: 1,
  },
  {
    name: '2026-07-28 envelope keys on a 2025-11-25 connection (SDK path)',
    sdkPath: true,
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

/** The `_meta` of a 2026-07-28 request: the envelope (client capabilities `capabilities`), then `extra`. */
const envelope = (extra: object = {}, capabilities: object = {}) => ({
  ...MODERN_META,
  [CLIENT_CAPABILITIES_META_KEY]: capabilities,
  ...extra,
});

/** A 2026-07-28 `tools/call`: `params` with the envelope in `_meta` (after the keys of `meta`'s own). */
const modernCall = (id: number | string, params: Record<string, unknown>, meta: object = envelope()) =>
  call(id, { ...params, _meta: meta });

const echo = (text: unknown) => ({ name: 'echo', arguments: { text } });
const wait = { name: 'wait', arguments: {} };
const cancel = (requestId: number | string, reason?: string) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId, ...(reason !== undefined && { reason }) },
});
const asking = envelope({}, { elicitation: {}, sampling: {} });
const listen = (id: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'subscriptions/listen',
  params: { notifications: { toolsListChanged: true }, _meta: envelope() },
});

/** The same requests on 2026-07-28 (the session opens with `tools/list`, id 0). */
const modernCases: Case[] = [
  { name: 'plain call', send: [modernCall(1, echo('hi'))], last: 1 },
  {
    name: 'string id, async tool',
    send: [modernCall('a', { name: 'async_echo', arguments: { text: 'x' } })],
    last: 'a',
  },
  ...SINGLE_CALLS.map(([name, params]): Case => ({ name, send: [modernCall(1, params)], last: 1 })),
  { name: 'tool error (isError)', send: [modernCall(1, { name: 'boom', arguments: {} })], last: 1 },
  {
    name: '_meta keys besides the envelope, before and after it (a middleware reading the SDK context)',
    middleware: true,
    send: [
      modernCall(1, echo('x'), { 'x.test/a': 1, ...envelope({ 'x.test/z': [2] }) }),
      modernCall(2, echo('y'), {
        [CLIENT_INFO_META_KEY]: { name: 'first', version: '1' },
        [CLIENT_CAPABILITIES_META_KEY]: {},
        [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
        'x.test/b': true,
      }),
    ],
    last: 2,
  },
  {
    name: 'progress and log level in the envelope',
    send: [
      modernCall(1, { name: 'chatty', arguments: {} }, envelope({ progressToken: 'p1', [LOG_LEVEL_META_KEY]: 'info' })),
    ],
    last: 1,
  },
  {
    name: 'no clientInfo (accepted: SHOULD)',
    send: [modernCall(1, echo('x'), { [PROTOCOL_VERSION_META_KEY]: '2026-07-28', [CLIENT_CAPABILITIES_META_KEY]: {} })],
    last: 1,
  },
  {
    name: 'envelope naming another revision',
    send: [modernCall(1, echo('x'), envelope({ [PROTOCOL_VERSION_META_KEY]: '2025-11-25' }))],
    last: 1,
  },
  { name: 'no envelope (SDK path)', sdkPath: true, send: [call(1, echo('x'))], last: 1 },
  {
    name: 'other _meta, no envelope (SDK path)',
    sdkPath: true,
    send: [call(1, { ...echo('x'), _meta: { progressToken: 1 } })],
    last: 1,
  },
  {
    name: 'no clientCapabilities (SDK path)',
    sdkPath: true,
    send: [modernCall(1, echo('x'), { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' })],
    last: 1,
  },
  {
    name: 'malformed clientInfo (SDK path)',
    sdkPath: true,
    send: [modernCall(1, echo('x'), envelope({ [CLIENT_INFO_META_KEY]: { name: 5 } }))],
    last: 1,
  },
  {
    name: 'malformed log level (SDK path)',
    sdkPath: true,
    send: [modernCall(1, echo('x'), envelope({ [LOG_LEVEL_META_KEY]: 'loud' }))],
    last: 1,
  },
  {
    name: 'an envelope a middleware changed is checked again (SDK path for the second)',
    middleware: true,
    sdkPath: 1,
    send: [
      modernCall(1, { name: 'changes_its_envelope', arguments: {} }),
      answered(1),
      modernCall(2, echo('x'), envelope({ [PROTOCOL_VERSION_META_KEY]: 5 })),
    ],
    last: 2,
  },
  {
    name: 'the envelope again in another key order, then one that differs deep inside (SDK path for that one)',
    sdkPath: 1,
    send: [
      modernCall(1, echo('a'), asking),
      answered(1),
      modernCall(2, echo('b'), {
        [CLIENT_CAPABILITIES_META_KEY]: { sampling: {}, elicitation: {} },
        [CLIENT_INFO_META_KEY]: { version: '1.0.0', name: 'raw' },
        [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
      }),
      answered(2),
      modernCall(3, echo('c'), envelope({}, { elicitation: 5, sampling: {} })),
    ],
    last: 3,
  },
  {
    // A "__proto__" key of the JSON text is an own key once parsed; compared with `in` it matched the
    // inherited Object.prototype and stood in for the missing `name`: the SDK refuses that envelope.
    name: 'an envelope whose clientInfo has a "__proto__" key in place of name is checked (SDK path for it)',
    sdkPath: 1,
    send: [
      modernCall(1, echo('a')),
      answered(1),
      modernCall(2, echo('b')),
      answered(2),
      JSON.stringify(
        modernCall(3, echo('c'), envelope({ [CLIENT_INFO_META_KEY]: { version: '1.0.0', PROTO: {} } })),
      ).replace('"PROTO"', '"__proto__"'),
    ],
    last: 3,
  },
  {
    name: 'input required (ctx.elicit)',
    clock: true,
    send: [modernCall(1, { name: 'ask', arguments: {} }, asking)],
    last: 1,
  },
  {
    name: 'input required without the client capability (-32021)',
    send: [modernCall(1, { name: 'ask', arguments: {} })],
    last: 1,
  },
  {
    name: 'a retry with inputResponses (SDK path)',
    sdkPath: true,
    clock: true,
    send: [
      modernCall(
        1,
        { name: 'ask', arguments: {}, inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } } },
        asking,
      ),
    ],
    last: 1,
  },
  {
    name: 'a -32042 thrown by a middleware (the SDK turns it into -32603 on 2026-07-28)',
    middleware: true,
    send: [modernCall(1, { name: 'url_from_stage', arguments: {} })],
    last: 1,
  },
  {
    name: 'cancelled',
    send: [modernCall(1, wait), cancel(1, 'enough'), modernCall(2, echo('after'))],
    last: 2,
  },
  {
    name: 'cancelled, past the queue',
    send: [
      modernCall(1, echo('first')),
      answered(1),
      modernCall(2, wait),
      new Pause({ saw: 'wait started' }),
      cancel(2, 'enough'),
      modernCall(3, echo('after')),
    ],
    last: 3,
  },
  {
    name: 'calls one at a time, past the queue',
    send: [modernCall(1, echo('a')), answered(1), modernCall(2, echo(2)), answered(2), modernCall(3, echo('c'))],
    last: 3,
  },
  {
    name: 'task-augmented (SDK path)',
    sdkPath: true,
    send: [modernCall(1, { ...echo('x'), task: {} })],
    last: 1,
  },
  {
    name: 'three calls in one write',
    pipelined: true,
    send: [oneWrite(modernCall(1, echo('a')), modernCall(2, echo(1)), modernCall(3, echo('c')))],
    last: 3,
  },
  {
    name: 'calls behind a listen, tools/list, a refused initialize and a cancelled listen, in one write',
    pipelined: true,
    send: [
      oneWrite(
        listen('L1'),
        modernCall(1, echo('a')),
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope() } },
        modernCall(3, echo('c')),
        {
          jsonrpc: '2.0',
          id: 4,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        },
        modernCall(5, echo('e')),
        cancel('L1'),
        modernCall(6, echo('f')),
      ),
    ],
    last: 6,
  },
  {
    name: 'calls around a listen, one at a time',
    send: [
      modernCall(1, echo('a')),
      answered(1),
      modernCall(2, echo('b')),
      answered(2),
      listen('L1'),
      new Pause({ acknowledged: 'L1' }),
      modernCall(3, echo('c')),
      answered(3),
      modernCall(4, echo('d')),
      answered(4),
      cancel('L1'),
      modernCall(5, echo('e')),
      answered(5),
      modernCall(6, echo('f')),
    ],
    last: 6,
  },
  {
    name: 'closed with a call running and a listen open',
    send: [listen('L1'), modernCall(1, echo('a')), answered(1), modernCall(2, wait)],
    last: { close: 'wait started' },
  },
];

/** The stdout lines of one case, and how many tools/call requests reached the SDK's `_onrequest`. */
async function run(testCase: Case, dispatch: boolean) {
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
  if (testCase.clock) vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2030, 0, 1));
  const served = modernStdioToolsCallProbe.served;
  const direct = stdioQueueBypassProbe.delivered;
  const session = new Session(testCase.middleware === true);
  const { last } = testCase;
  let closed = false;
  try {
    await session.open(testCase.modern === true);
    await session.until(0);
    for (const message of testCase.send) {
      if (!(message instanceof Pause)) session.send(message);
      else if ('answered' in message.until) await session.until(message.until.answered);
      else if ('saw' in message.until) {
        const { saw } = message.until;
        await session.waitFor(() => seen.includes(saw), `never saw ${saw}`);
      } else {
        const id = message.until.acknowledged;
        const acknowledges = (line: string) => line.includes('subscriptions/acknowledged') && line.includes(`"${id}"`);
        await session.waitFor(() => session.lines.some(acknowledges), `no acknowledgement of ${id}`);
      }
    }
    if (typeof last === 'object') {
      await session.waitFor(() => seen.includes(last.close), `never saw ${last.close}`);
      await session.close();
      closed = true;
    } else await session.until(last);
    const counts = {
      sdkCalls,
      served: modernStdioToolsCallProbe.served - served,
      direct: stdioQueueBypassProbe.delivered - direct,
    };
    return { lines: session.lines, seen, ...counts };
  } finally {
    if (own) Object.defineProperty(proto, '_onrequest', own);
    else delete proto._onrequest;
    vi.restoreAllMocks();
    if (!closed) await session.close();
  }
}

/** How many tools/call requests a case sends (a request written in one line with others counts too). */
function callsIn(testCase: Case): number {
  return testCase.send
    .filter((message) => !(message instanceof Pause))
    .flatMap((message) =>
      typeof message === 'string' ? message.split('\n').map((line) => JSON.parse(line)) : [message],
    )
    .filter((message: Message) => message.method === 'tools/call').length;
}

describe('stdio tools/call dispatch', () => {
  beforeAll(() => expect(modernToolsCallMismatch()).toBeUndefined()); // its probe runs the SDK's _onrequest once
  afterEach(() => setStdioToolsCallDispatch(true));

  it('applies to the installed SDK, on both eras', () => {
    const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
    expect(stdioToolsCallApplies(server)).toBe(true);
    (server as unknown as { _negotiatedProtocolVersion: string })._negotiatedProtocolVersion = '2026-07-28';
    expect(stdioToolsCallApplies(server)).toBe(true);
  });

  const all = [
    ...cases,
    ...modernCases.map((testCase) => ({ ...testCase, modern: true, name: `2026-07-28: ${testCase.name}` })),
  ];
  for (const testCase of all) {
    it(`writes what the SDK writes: ${testCase.name}`, async () => {
      const sdk = await run(testCase, false);
      const ours = await run(testCase, true);
      // Pipelined answers: the same lines; a shorter path may answer a later request first.
      const order = (lines: string[]) => (testCase.pipelined ? [...lines].sort() : lines);
      expect(order(ours.lines)).toEqual(order(sdk.lines));
      expect(ours.seen).toEqual(sdk.seen);
      const calls = callsIn(testCase);
      expect(sdk.sdkCalls).toBe(calls);
      expect(sdk.served).toBe(0);
      const sdkPath = typeof testCase.sdkPath === 'number' ? testCase.sdkPath : testCase.sdkPath ? calls : 0;
      expect(ours.sdkCalls).toBe(sdkPath);
      // The 2026-07-28 dispatch took the modern calls; past serveStdio's queue, those written one at a
      // time, when the queue is empty: not the first after the opening (nor the first after a listen).
      expect(ours.served).toBe(testCase.modern ? calls - sdkPath : 0);
      expect(sdk.direct).toBe(0);
      const paused = testCase.send.filter((message) => message instanceof Pause && 'answered' in message.until);
      if (testCase.modern && paused.length > 0) expect(ours.direct).toBeGreaterThan(0);
    });
  }
});
