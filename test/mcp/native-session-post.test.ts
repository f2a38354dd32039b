// A plain POST of an established 2025-11-25 session is answered on the Node response itself
// (sdk-internals/native-session-post.ts, transports/http/node-sse-answer.ts): the raw HTTP bytes must be the
// ones the SDK transport and @hono/node-server give (status line, headers, SSE events, content-length or
// chunked framing), and everything the shortcut does not take must still reach the SDK.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpMcpServer, defineTool } from '../../src/index.js';
import { nativeSessionPostMismatch, nativeSessionPostProbe } from '../../src/mcp/sdk-internals/native-session-post.js';
import { silentLogger } from '../support/in-memory.js';
import { exchange } from '../support/raw-http.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('native answers to plain POSTs of a legacy session', () => {
  let server: HttpMcpServer;
  let port: number;
  let session: string;
  let nextId = 10;

  beforeAll(async () => {
    server = new HttpMcpServer({ name: 'native-post', version: '1.0.0' }, { port: 0, logger: silentLogger() });
    server.registerTool(
      defineTool({
        name: 'echo',
        description: 'e',
        inputSchema: z.object({ text: z.string() }),
        execute: (a) => a.text,
      }),
    );
    server.registerTool(
      defineTool({
        name: 'slow',
        description: 'progress, then an answer after the event loop turned',
        inputSchema: z.object({}),
        execute: async (_args, context) => {
          await context.reportProgress({ progress: 1, total: 2, message: 'half ✓' });
          await delay(15);
          await context.reportProgress({ progress: 2, total: 2 });
          return 'done "ü"';
        },
      }),
    );
    server.registerTool(
      defineTool({
        name: 'hurry',
        description: 'progress and the answer in the same turn',
        inputSchema: z.object({}),
        execute: (_args, context) => {
          void context.reportProgress({ progress: 1 });
          return 'hurried';
        },
      }),
    );
    server.registerTool(
      defineTool({
        name: 'fails',
        description: 'throws',
        inputSchema: z.object({}),
        execute: () => {
          throw new Error('it broke');
        },
      }),
    );
    await server.start();
    port = server.address!.port;
    const init = await exchange(
      port,
      {},
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
    );
    session = /mcp-session-id: ([^\r]+)/i.exec(init)![1]!;
    await exchange(port, { 'Mcp-Session-Id': session }, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  });
  afterAll(async () => {
    nativeSessionPostProbe.enabled = true;
    await server.stop();
  });

  /** The same request (same id) answered natively, then by the SDK transport; with the count of native answers. */
  async function bothWays(body: (id: number) => string, head: Record<string, string> = {}) {
    const id = nextId++;
    const headers = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25', ...head };
    const before = nativeSessionPostProbe.served;
    nativeSessionPostProbe.enabled = true;
    const native = await exchange(port, headers, body(id));
    const served = nativeSessionPostProbe.served - before;
    nativeSessionPostProbe.enabled = false;
    const sdk = await exchange(port, headers, body(id));
    nativeSessionPostProbe.enabled = true;
    return { native, sdk, served };
  }

  const call = (name: string, args: object, meta?: object) => (id: number) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args, ...(meta && { _meta: meta }) },
    });

  it('applies to the installed SDK', () => {
    expect(nativeSessionPostMismatch()).toBeUndefined();
  });

  it.each([
    ['a quick tools/call (whole, content-length)', call('echo', { text: 'hi ✓' })],
    ['a tool that throws (isError result)', call('fails', {})],
    ['an unknown tool', call('nope', {})],
    ['invalid arguments', call('echo', { text: 5 })],
    ['tools/list', (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`],
    ['ping with a string id', (id: number) => `{"jsonrpc":"2.0","id":"p-${id}","method":"ping"}`],
    ['an unknown method', (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"nope/nope","params":{}}`],
  ])('answers %s with the SDK bytes', async (_label, body) => {
    const { native, sdk, served } = await bothWays(body);
    expect(served).toBe(1);
    expect(native).toBe(sdk);
    expect(native).toMatch(/^HTTP\/1\.1 200 OK\r\ncache-control: no-cache, no-transform\r\nconnection: keep-alive\r\n/);
  });

  it('sends a one-event answer whole (content-length) and a quick answer of several chunks chunked, as hono does', async () => {
    const quick = await bothWays(call('echo', { text: 'whole' }));
    expect(quick.native).toMatch(/\r\ncontent-length: \d+\r\n/);
    const parts = await bothWays(call('hurry', {}, { progressToken: 7 }));
    expect(parts.served).toBe(1);
    expect(parts.native).toBe(parts.sdk);
    expect(parts.native).toMatch(/\r\ntransfer-encoding: chunked\r\n/i);
  });

  it('streams a slow call with progress as the SDK does (chunked, one chunk per event)', async () => {
    const { native, sdk, served } = await bothWays(call('slow', {}, { progressToken: 'tok' }));
    expect(served).toBe(1);
    expect(native).toBe(sdk);
    expect(native).toMatch(/\r\ntransfer-encoding: chunked\r\n/i);
    expect(native.match(/notifications\/progress/g)).toHaveLength(2);
  });

  it.each([
    ['an unsupported protocol version header', call('echo', { text: 'a' }), { 'MCP-Protocol-Version': '1999-01-01' }],
    ['a notification', () => '{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}', {}],
    ['a batch', (id: number) => `[${call('echo', { text: 'b' })(id)}]`, {}],
    [
      'initialize inside a session',
      (id: number) =>
        `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
      {},
    ],
    [
      'a request with an extra top-level field',
      (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping","x":1}`,
      {},
    ],
  ])('leaves %s to the SDK transport', async (_label, body, head) => {
    const { native, sdk, served } = await bothWays(body, head);
    expect(served).toBe(0);
    expect(native).toBe(sdk);
  });

  it('sends keepalives on a long answer and ends it when the result comes', async () => {
    const slow = new HttpMcpServer(
      { name: 'native-keepalive', version: '1.0.0' },
      { port: 0, logger: silentLogger(), keepAliveMs: 10 },
    );
    slow.registerTool(
      defineTool({
        name: 'wait',
        description: 'w',
        inputSchema: z.object({}),
        execute: () => delay(60).then(() => 'ok'),
      }),
    );
    await slow.start();
    try {
      const p = slow.address!.port;
      const init = await exchange(
        p,
        {},
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
      );
      const id = /mcp-session-id: ([^\r]+)/i.exec(init)![1]!;
      const before = nativeSessionPostProbe.served;
      const answer = await exchange(p, { 'Mcp-Session-Id': id }, call('wait', {})(2));
      expect(nativeSessionPostProbe.served - before).toBe(1);
      expect(answer).toContain(': keepalive\n\n');
      expect(answer).toMatch(
        /data: \{"result":\{"content":\[\{"type":"text","text":"ok"\}\]\},"jsonrpc":"2.0","id":2\}\n\n\r\n0\r\n\r\n$/,
      );
    } finally {
      await slow.stop();
    }
  });
});
