// 2026-07-28 `tools/list` over HTTP is answered from the list's cached JSON (sdk-internals/cached-json-response.ts):
// the same status, headers and bytes as the SDK's `Response.json`, the list not serialized again, and the
// SDK's own path for every other answer.
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { PerRequestHTTPServerTransport, type JSONRPCMessage, type Server } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpMcpServer, defineTool } from '../../src/index.js';
import {
  answerCachedListsAsJson,
  cachedListParts,
  checkCachedJsonResponse,
} from '../../src/mcp/sdk-internals/cached-json-response.js';
import { createWebBridge } from '../../src/mcp/transports/http/web-bridge.js';
import { markSerializedOnce, responseArray } from '../../src/mcp/wire/serialized-once.js';
import { silentLogger } from '../support/in-memory.js';
import { countedTools } from '../support/counted-tools.js';

const tools = Object.freeze([
  Object.freeze({ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }),
  Object.freeze({ name: 'ünïcode ✓', description: 'quotes " and \\ and \n newlines', inputSchema: { type: 'object' } }),
]);
markSerializedOnce(tools);

/**
 * The Response a per-request transport gives for one request answered with `answer(id)`: through the
 * SDK's own `send`, or through a view wrapped by `answerCachedListsAsJson`.
 */
async function answered(
  cached: boolean,
  answer: (id: number) => JSONRPCMessage,
  bodyOnDemand = false,
): Promise<Response> {
  const transport = new PerRequestHTTPServerTransport({ classification: undefined as never, responseMode: 'json' });
  const view = {
    async connect(t: PerRequestHTTPServerTransport) {
      await t.start();
      t.onmessage = (message) => void t.send(answer((message as { id: number }).id));
    },
  } as unknown as Server;
  await (cached ? answerCachedListsAsJson(view, bodyOnDemand) : view).connect(transport);
  return transport.handleMessage({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} });
}

/** The raw HTTP/1.1 bytes (latin1, `Date` masked) the web bridge writes for each response, one request each. */
async function rawResponses(responses: Response[]): Promise<string[]> {
  const bridge = createWebBridge((error) => {
    throw error;
  });
  let next = 0;
  const server = createServer((req, res) => void bridge(req, res, () => Promise.resolve(responses[next++]!)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const one = () =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () =>
        resolve(
          Buffer.concat(chunks)
            .toString('latin1')
            .replace(/\r\nDate: [^\r]*/i, ''),
        ),
      );
      socket.on('error', reject);
      socket.write('POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
    });
  try {
    const out: string[] = [];
    for (const _ of responses) out.push(await one());
    return out;
  } finally {
    server.close();
  }
}

async function bytesOf(response: Response) {
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('cached JSON answers on 2026-07-28 requests', () => {
  const results: Array<[string, (id: number) => JSONRPCMessage]> = [
    ['a marked tools/list result', (id) => ({ result: { tools: responseArray(tools) }, jsonrpc: '2.0', id })],
    [
      'a marked result with 2026-07-28 fields around it',
      (id) => ({
        result: { tools: responseArray(tools), resultType: 'complete', ttlMs: 0, _meta: { a: '✓' } },
        jsonrpc: '2.0',
        id,
      }),
    ],
    ['an unmarked list', (id) => ({ result: { tools: [...tools] }, jsonrpc: '2.0', id })],
    [
      'a tools/call result',
      (id) => ({
        result: { content: [{ type: 'text', text: 'ü "q" \ud800' }], resultType: 'complete', _meta: { a: 1 } },
        jsonrpc: '2.0',
        id,
      }),
    ],
    ['an error', (id) => ({ jsonrpc: '2.0', id, error: { code: -32602, message: 'nope' } })],
  ];

  it.each(results)('answers %s with the bytes the SDK gives', async (_label, answer) => {
    expect(await bytesOf(await answered(true, answer))).toEqual(await bytesOf(await answered(false, answer)));
  });

  it.each(results)('answers %s with the bytes the SDK gives, body on demand', async (_label, answer) => {
    const response = await answered(true, answer, true);
    expect(await bytesOf(response)).toEqual(await bytesOf(await answered(false, answer)));
    expect(cachedListParts(response)).toBeUndefined(); // read: no longer written from its parts
  });

  it('keeps the parts of an answer with its body on demand only', async () => {
    const answer = results[0]![1];
    const parts = cachedListParts(await answered(true, answer, true));
    expect(parts && Buffer.concat([Buffer.from(parts.before), parts.tools, Buffer.from(parts.after)]).toString()).toBe(
      (await bytesOf(await answered(false, answer))).body,
    );
    expect(cachedListParts(await answered(true, answer))).toBeUndefined();
    expect(cachedListParts(await answered(true, results[4]![1], true))).toBeUndefined(); // an error: the SDK's
  });

  it('keeps any other plain result whole, as its JSON text', async () => {
    for (const answer of [results[2]![1], results[3]![1]]) {
      const parts = cachedListParts(await answered(true, answer, true));
      expect(parts?.tools.byteLength).toBe(0);
      expect(parts && parts.before + parts.after).toBe((await bytesOf(await answered(false, answer))).body);
    }
  });

  it.each([0, 1, 3])(
    'the Node bridge writes answer %i from its parts as @hono/node-server writes the SDK answer',
    async (at) => {
      const answer = results[at]![1];
      const sdkAnswer = await answered(false, answer);
      const onDemand = await answered(true, answer, true);
      const raw = await rawResponses([onDemand, sdkAnswer]);
      expect(raw[0]).toBe(raw[1]);
      expect([onDemand.bodyUsed, sdkAnswer.bodyUsed]).toEqual([false, true]); // written from its parts, not read
      expect(raw[0]).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-type: application\/json\r\ncontent-length: \d+\r\n/);
    },
  );

  it('splices the cached JSON: the list is serialized once for every request', async () => {
    const { tools: counted, reads } = countedTools();
    const answer = (id: number): JSONRPCMessage => ({ result: { tools: responseArray(counted) }, jsonrpc: '2.0', id });
    const bodies = [await (await answered(true, answer)).text(), await (await answered(true, answer)).text()];
    expect(reads()).toBe(1);
    expect(bodies).toEqual(Array(2).fill('{"result":{"tools":[{"name":"counted"}]},"jsonrpc":"2.0","id":7}'));
  });

  it('passes the self-check on the installed SDK', () => {
    const warnings: string[] = [];
    expect(checkCachedJsonResponse((reason) => warnings.push(reason))).toBe(true);
    expect(warnings).toEqual([]);
  });
});

describe('HttpMcpServer: 2026-07-28 tools/list from the cache follows every change', () => {
  let server: HttpMcpServer;
  let url: string;
  const list = async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const body = await response.text();
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(JSON.stringify(JSON.parse(body))).toBe(body); // what the SDK's JSON.stringify would give
    return (JSON.parse(body) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
  };

  beforeAll(async () => {
    server = new HttpMcpServer({ name: 'cached-json', version: '1.0.0' }, { port: 0, logger: silentLogger() });
    for (const name of ['alpha', 'beta']) {
      server.registerTool(
        defineTool({ name, description: `${name} ✓ "quoted"`, inputSchema: z.object({}), execute: () => name }),
      );
    }
    await server.start();
    url = `http://127.0.0.1:${server.address!.port}/mcp`;
  });
  afterAll(() => server.stop());

  it('lists, then follows a toggle and a registration', async () => {
    expect(await list()).toEqual(['alpha', 'beta']);
    expect(await list()).toEqual(['alpha', 'beta']);
    server.disableTool('alpha');
    expect(await list()).toEqual(['beta']);
    server.registerTool(defineTool({ name: 'gamma', description: 'g', inputSchema: z.object({}), execute: () => 'g' }));
    expect(await list()).toEqual(['beta', 'gamma']);
    server.enableTool('alpha');
    expect(await list()).toEqual(['alpha', 'beta', 'gamma']);
  });
});
