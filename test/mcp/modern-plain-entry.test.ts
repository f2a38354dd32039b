// sdk-internals/modern-plain-entry.ts against the SDK's own per-request handler: the same 2026-07-28
// HTTP requests, sent with the entry on and off, must get the same status, headers (but Date) and body
// bytes, and the same results through the official v2 client; requests the entry leaves to the SDK must
// get the SDK's answers (it is off for them either way).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpMcpServer, defineTool } from '../../src/index.js';
import { UserError } from '../../src/errors.js';
import {
  modernPlainEntryMismatch,
  modernPlainEntryProbe,
  plainCallHeaders,
  setModernPlainEntry,
} from '../../src/mcp/sdk-internals/modern-plain-entry.js';
import { silentLogger } from '../support/in-memory.js';
import { exchange as rawExchange } from '../support/raw-http.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** What the tools and the middleware saw (the same on both paths). */
let seen: string[] = [];

/** A raw exchange as the authenticate hook's caller `ada` (unless `head` names another). */
function exchange(port: number, head: Record<string, string>, body: string): Promise<string> {
  return rawExchange(port, { 'X-User': 'ada', ...head }, body);
}

/** A `tools/call` of `name` with `args`, and the standard headers naming it. */
function call(id: number, name: string, args: unknown, extra: Record<string, unknown> = {}) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, _meta: META, ...extra },
  });
  const head = { 'Mcp-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': name };
  return { body, head };
}

describe('the plain 2026-07-28 tools/call entry', () => {
  let server: HttpMcpServer;
  let port: number;

  beforeAll(async () => {
    server = new HttpMcpServer(
      { name: 'plain-entry', version: '1.0.0' },
      {
        port: 0,
        logger: silentLogger(),
        keepAliveMs: 40,
        authenticate: (req) => {
          const user = req.headers['x-user'];
          return typeof user === 'string' && user !== '' ? { token: user, clientId: user, scopes: ['mcp'] } : undefined;
        },
      },
    );
    const text = z.object({ text: z.string() });
    server.registerTool(defineTool({ name: 'echo', description: 'e', inputSchema: text, execute: (a) => a.text }));
    server.registerTool(defineTool({ name: 'off', description: 'o', inputSchema: text, execute: (a) => a.text }));
    server.disableTool('off');
    server.registerTool(
      defineTool({
        name: 'boom',
        description: 'throws',
        inputSchema: z.object({}),
        execute: () => {
          throw new Error('kaput "ü"');
        },
      }),
    );
    server.registerTool(
      defineTool({
        name: 'user_error',
        description: 'an isError result',
        inputSchema: z.object({}),
        execute: () => {
          throw new UserError('say it differently');
        },
      }),
    );
    server.registerTool(
      defineTool({
        name: 'structured',
        description: 'object',
        inputSchema: z.object({}),
        outputSchema: z.object({ n: z.number() }),
        execute: () => ({ n: 1 }),
      }),
    );
    server.registerTool(
      defineTool({
        name: 'who',
        description: 'the caller, its client and request',
        inputSchema: z.object({}),
        execute: (_args, context) =>
          JSON.stringify([
            context.authInfo?.clientId,
            context.clientInfo,
            context.era,
            context.request?.headers.get('x-user'),
          ]),
      }),
    );
    server.registerTool(
      defineTool({
        name: 'chatty',
        description: 'progress and a log, then an answer',
        inputSchema: z.object({}),
        execute: async (_args, context) => {
          await context.reportProgress({ progress: 1, total: 2 });
          context.log.warn('careful');
          return 'done';
        },
      }),
    );
    server.registerTool(
      defineTool({
        name: 'quiet',
        description: 'answers after the keepalive interval',
        inputSchema: z.object({}),
        execute: async () => {
          await new Promise((resolve) => setTimeout(resolve, 120));
          return 'late';
        },
      }),
    );
    server.use(async (context, next) => {
      seen.push(`${context.method} ${Object.keys(context.sdk.mcpReq).join()}`);
      return next();
    });
    await server.start();
    port = server.address!.port;
  });
  afterAll(async () => {
    setModernPlainEntry(true);
    await server.stop();
  });

  it('applies to the installed SDK', () => {
    expect(modernPlainEntryMismatch()).toBeUndefined();
  });

  const cases: Array<[string, () => { body: string; head: Record<string, string> }]> = [
    ['a plain call', () => call(1, 'echo', { text: 'hi "ü" \ud83d\ude00' })],
    ['a string id', () => call('x' as never, 'echo', { text: 'a' })],
    ['an unknown tool', () => call(2, 'nope', {})],
    ['a disabled tool', () => call(3, 'off', { text: 'a' })],
    ['bad arguments', () => call(4, 'echo', { text: 5 })],
    ['missing arguments', () => call(5, 'echo', undefined)],
    ['a throwing tool', () => call(6, 'boom', {})],
    ['an isError result', () => call(7, 'user_error', {})],
    ['structured output', () => call(8, 'structured', {})],
    ['the caller', () => ({ ...call(9, 'who', {}), head: { ...call(9, 'who', {}).head, 'X-User': 'grace' } })],
    [
      'no caller (401)',
      () => ({ ...call(19, 'echo', { text: 'a' }), head: { ...call(19, 'echo', {}).head, 'X-User': '' } }),
    ],
    ['progress and a log', () => call(10, 'chatty', {}, { _meta: { ...META, progressToken: 't' } })],
    ['a quiet call (keepalives, SSE)', () => call(11, 'quiet', {})],
    [
      'a mismatched Mcp-Name',
      () => ({ ...call(12, 'echo', { text: 'a' }), head: { ...call(12, 'echo', {}).head, 'Mcp-Name': 'boom' } }),
    ],
    [
      'no Mcp-Name',
      () => {
        const { body, head } = call(13, 'echo', { text: 'a' });
        const { 'Mcp-Name': _name, ...rest } = head;
        return { body, head: rest };
      },
    ],
    [
      'a mismatched version header',
      () => ({
        ...call(14, 'echo', { text: 'a' }),
        head: { ...call(14, 'echo', {}).head, 'Mcp-Protocol-Version': '2025-11-25' },
      }),
    ],
    [
      'an invalid envelope',
      () => call(15, 'echo', { text: 'a' }, { _meta: { ...META, 'io.modelcontextprotocol/clientInfo': 5 } }),
    ],
    [
      'a text/plain body',
      () => ({
        ...call(16, 'echo', { text: 'a' }),
        head: { ...call(16, 'echo', {}).head, 'Content-Type': 'text/plain' },
      }),
    ],
    [
      'invalid params (name not a string)',
      () => ({ ...call(17, 'echo', {}), body: call(17, 'echo', {}).body.replace('"name":"echo"', '"name":7') }),
    ],
  ];

  const taken = new Map<string, boolean>();
  // How many keepalives a slow answer gets depends on timers on a loaded machine: a run of them counts as one.
  const keepaliveOnce = (exchanged: string) => exchanged.replace(/(d\r\n: keepalive\n\n\r\n)+/g, '$1');

  it.each(cases)('answers %s with the bytes the SDK gives', async (_label, make) => {
    const { body, head } = make();
    seen = [];
    setModernPlainEntry(false);
    const sdk = await exchange(port, head, body);
    const sdkSeen = seen;
    seen = [];
    setModernPlainEntry(true);
    const served = modernPlainEntryProbe.served;
    const ours = await exchange(port, head, body);
    taken.set(_label, modernPlainEntryProbe.served > served);
    expect(keepaliveOnce(ours)).toBe(keepaliveOnce(sdk));
    expect(seen).toEqual(sdkSeen);
    expect(sdk).toMatch(/^HTTP\/1\.1 \d{3}/);
    if (_label === 'a plain call') expect(sdk).toContain('"text":"hi \\"');
    if (_label === 'a quiet call (keepalives, SSE)') expect(ours).toContain(': keepalive\n\n');
  });

  it('took the plain requests and left the rest to the SDK', () => {
    const left = [
      'no caller (401)',
      'progress and a log',
      'a mismatched Mcp-Name',
      'no Mcp-Name',
      'a mismatched version header',
    ];
    left.push('an invalid envelope', 'a text/plain body', 'invalid params (name not a string)');
    for (const [label] of cases) expect([label, taken.get(label)]).toEqual([label, !left.includes(label)]);
  });

  it('takes exactly the plain calls', () => {
    const plain = call(1, 'echo', { text: 'a' });
    const raw = (head: Record<string, string>) => Object.entries(head).flat();
    const json = { 'Content-Type': 'application/json' };
    expect(plainCallHeaders(raw({ ...json, ...plain.head }), JSON.parse(plain.body))).toBeDefined();
    expect(plainCallHeaders([...raw({ ...json, ...plain.head }), 'mcp-name', 'echo'], JSON.parse(plain.body))).toBe(
      undefined,
    ); // sent twice: the SDK reads them joined
    for (const extra of [
      { task: {} },
      { requestState: 's' },
      { inputResponses: {} },
      { _meta: { ...META, progressToken: 1 } },
    ]) {
      expect(plainCallHeaders(raw({ ...json, ...plain.head }), JSON.parse(call(1, 'echo', {}, extra).body))).toBe(
        undefined,
      );
    }
    expect(
      plainCallHeaders(raw({ ...json, ...plain.head, 'Mcp-Name': '=?base64?ZWNobw==?=' }), JSON.parse(plain.body)),
    ).toBe(undefined);
  });

  it('gives the official v2 client the same results on both paths', async () => {
    const run = async () => {
      const client = new Client(
        { name: 'v2', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
          requestInit: { headers: { 'X-User': 'grace' } },
        }) as never,
      );
      const results: unknown[] = [];
      for (const [name, args] of [
        ['echo', { text: 'hi' }],
        ['who', {}],
        ['structured', {}],
        ['user_error', {}],
        ['boom', {}],
        ['echo', { text: 1 }],
      ] as const) {
        results.push(await client.callTool({ name, arguments: args }));
      }
      for (const name of ['nope', 'off']) {
        results.push(await client.callTool({ name, arguments: {} }).catch((error: Error) => error.message));
      }
      await client.close();
      return results;
    };
    setModernPlainEntry(false);
    const sdk = await run();
    setModernPlainEntry(true);
    expect(await run()).toEqual(sdk);
    expect(JSON.stringify(sdk)).toContain('grace');
  });
});
