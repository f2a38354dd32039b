// toFetchHandler under Node, in process: real web Requests (and the SDK clients through a fetch that
// calls the handler) against the checks it shares with HttpMcpServer, and what the fetch server refuses.
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpMcpServer } from 'mcp-toolkit';
import {
  AuthenticationError,
  FetchMcpServer,
  UnsupportedFeatureError,
  defineTool,
  toFetchHandler,
  type FetchHandler,
} from 'mcp-toolkit/fetch';
import { connectClient, type TestClient } from '../support/clients.js';

const URL_ = 'http://127.0.0.1:8787/mcp';
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

function makeServer(): FetchMcpServer {
  const server = new FetchMcpServer({ name: 'fetch-test', version: '1.0.0' });
  server.registerTool(
    defineTool({
      name: 'whoami',
      inputSchema: z.object({}),
      execute: (_args, context) => String(context.authInfo?.clientId ?? 'nobody'),
    }),
  );
  server.registerTool(
    defineTool({
      name: 'secret',
      inputSchema: z.object({}),
      canAccess: (auth) => auth?.clientId === 'root',
      execute: () => 'ok',
    }),
  );
  return server;
}

const clients: TestClient[] = [];
const servers: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await Promise.allSettled(servers.splice(0).map((server) => server.stop()));
});

/** An SDK client whose HTTP goes straight into the handler (no socket). */
function connect(kind: 'v1' | 'v2-modern', handler: FetchHandler, headers: Record<string, string> = {}) {
  const fetch = (input: string | URL | Request, init?: RequestInit) =>
    handler(
      new Request(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), ...headers } }),
    );
  const url = new URL(URL_);
  const transport = kind === 'v1' ? new HttpV1(url, { fetch }) : new HttpV2(url, { fetch });
  return connectClient(kind, transport).then((client) => (clients.push(client), client));
}

const post = (handler: FetchHandler, body: string, headers: Record<string, string> = {}) =>
  handler(new Request(URL_, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body }));

describe('toFetchHandler (mcp-toolkit/fetch) under Node', () => {
  it('serves both eras with the server registry; a toggle applies to the next request', async () => {
    const server = makeServer();
    servers.push(server);
    const handler = toFetchHandler(server);
    const modern = await connect('v2-modern', handler);
    const legacy = await connect('v1', handler);
    for (const client of [modern, legacy]) expect(await client.toolNames()).toEqual(['whoami']);
    server.disableTool('whoami');
    for (const client of [modern, legacy]) expect(await client.toolNames()).toEqual([]);
    await modern.toolsChanged.waitFor(1);
    expect(server.isRunning).toBe(true); // the first request started it
    await server.stop();
    const after = await post(handler, JSON.stringify(INITIALIZE));
    expect([after.status, ((await after.json()) as { error: { message: string } }).error.message]).toEqual([
      503,
      'Service Unavailable: FetchMcpServer.start(): the server was stopped.',
    ]);
  });

  it('checks Host/Origin, methods, paths, bodies and Accept as HttpMcpServer does', async () => {
    const server = makeServer();
    servers.push(server);
    const handler = toFetchHandler(server, { allowedHosts: ['127.0.0.1'], maxRequestBodyBytes: 1024 });
    const initialize = JSON.stringify(INITIALIZE);
    expect((await post(handler, initialize)).status).toBe(200);
    expect((await post(handler, initialize, { host: 'evil.example' })).status).toBe(403);
    const put = await handler(new Request(URL_, { method: 'PUT' }));
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST, DELETE']);
    expect((await handler(new Request('http://127.0.0.1:8787/other'))).status).toBe(404);
    const big = await post(handler, JSON.stringify({ ...INITIALIZE, pad: 'x'.repeat(2048) }));
    expect([big.status, ((await big.json()) as { error: { message: string } }).error.message]).toEqual([
      413,
      'Payload Too Large: request body must not exceed 1024 bytes',
    ]);
    expect((await post(handler, initialize, { 'content-type': 'text/plain' })).status).toBe(415);
    const malformed = await post(handler, '{"jsonrpc":');
    expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
    expect((await post(handler, initialize, { accept: 'text/html' })).status).toBe(406);
    expect((await post(handler, initialize, { accept: '*/*' })).status).toBe(200); // RFC 9110 wildcard
    expect((await handler(new Request(URL_, { method: 'GET', headers: JSON_HEADERS }))).status).toBe(405); // stateless
  });

  it('authenticate guards both eras: 401 with WWW-Authenticate; the auth info reaches tools and canAccess', async () => {
    const server = makeServer();
    servers.push(server);
    const handler = toFetchHandler(server, {
      authenticate: (request) => {
        const token = request.headers.get('authorization');
        if (!token) return undefined;
        if (token !== 'Bearer root') throw new AuthenticationError('Unauthorized: bad token');
        return { token: 'root', clientId: 'root', scopes: [] };
      },
    });
    const refused = await post(handler, JSON.stringify(INITIALIZE));
    expect([refused.status, refused.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="fetch-test"']);
    expect((await post(handler, JSON.stringify(INITIALIZE), { authorization: 'Bearer nope' })).status).toBe(401);
    for (const kind of ['v1', 'v2-modern'] as const) {
      const client = await connect(kind, handler, { authorization: 'Bearer root' });
      expect((await client.toolNames()).sort()).toEqual(['secret', 'whoami']);
      expect((await client.callTool('whoami')).content[0]?.text).toBe('root');
    }
  });

  it('documents are not offered: registerDocument / registerFolder throw UnsupportedFeatureError', () => {
    const server = makeServer();
    expect(() => server.registerDocument('/etc/hostname')).toThrow(UnsupportedFeatureError);
    expect(() => server.registerFolder('/etc')).toThrow(/mcp-toolkit\/fetch/);
    expect(server.documents.list()).toEqual([]);
  });

  it('serves an HttpMcpServer too (same registry as its own endpoint), and refuses unknown options', async () => {
    const http = new HttpMcpServer({ name: 'both', version: '1.0.0' }, { port: 0 });
    servers.push(http);
    http.registerTool(defineTool({ name: 'ping_me', inputSchema: z.object({}), execute: () => 'pong' }));
    const handler = toFetchHandler(http);
    const client = await connect('v2-modern', handler);
    expect((await client.callTool('ping_me')).content[0]?.text).toBe('pong');
    await handler.close();
    expect(() => toFetchHandler(http, { port: 1 } as never)).toThrow(/Unknown toFetchHandler option: "port"/);
  });
});
