import http from 'node:http';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthError, verifyBearerToken } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../src/errors.js';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { connectClient } from '../support/clients.js';
import { INITIALIZE, listTools, messages, openSession, post, sessionHeaders, startServer } from './http-helpers.js';

/** A raw request with a Host header of our choosing (fetch does not let us set Host). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

describe('HttpMcpServer security defaults', () => {
  let server: HttpMcpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('binds to 127.0.0.1 by default', async () => {
    server = await startServer();
    expect(server.address.host).toBe('127.0.0.1');
    expect(server.address.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('rejects a foreign Host (DNS rebinding) or Origin with 403; loopback names pass', async () => {
    server = await startServer();
    const { url, port } = server.address;
    const body = JSON.stringify(INITIALIZE);
    const foreign = await rawPost(url, { ...JSON_HEADERS, Host: `evil.example:${port}` }, body);
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    const origin = await rawPost(
      url,
      { ...JSON_HEADERS, Host: `localhost:${port}`, Origin: 'https://evil.example' },
      body,
    );
    expect(origin.status).toBe(403);
    const local = await rawPost(
      url,
      { ...JSON_HEADERS, Host: `localhost:${port}`, Origin: `http://localhost:5173` },
      body,
    );
    expect(local.status).toBe(200);
  });

  it('allowedHosts widens the Host check', async () => {
    server = await startServer({ allowedHosts: ['mcp.example.com'] });
    const { url, port } = server.address;
    const body = JSON.stringify(INITIALIZE);
    expect((await rawPost(url, { ...JSON_HEADERS, Host: `mcp.example.com:${port}` }, body)).status).toBe(200);
    expect((await rawPost(url, { ...JSON_HEADERS, Host: `localhost:${port}` }, body)).status).toBe(403);
  });

  it('allowedOrigins accepts hostnames and full origins alike', async () => {
    server = await startServer({ allowedOrigins: ['https://app.example.com:8443', 'tools.example.org'] });
    const { url, port } = server.address;
    const body = JSON.stringify(INITIALIZE);
    const post = (origin: string) => rawPost(url, { ...JSON_HEADERS, Host: `localhost:${port}`, Origin: origin }, body);
    expect((await post('https://app.example.com')).status).toBe(200);
    expect((await post('https://tools.example.org')).status).toBe(200);
    expect((await post('https://evil.example')).status).toBe(403);
  });

  it('answers a 5 MiB body with 413 and a JSON-RPC error; the server keeps serving', async () => {
    server = await startServer();
    const { url } = server.address;
    const id = await openSession(url);
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x'.repeat(5 * 1024 * 1024) } },
    });
    const response = await post(url, huge, sessionHeaders(id));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/Payload Too Large/) },
    });
    expect((await listTools(url, id)).status).toBe(200);
  });

  it('answers malformed JSON with a JSON-RPC parse error and keeps serving other sessions', async () => {
    server = await startServer();
    const { url } = server.address;
    const other = await openSession(url);
    const broken = await post(url, '{"jsonrpc": "2.0", "id": 1, "method": ', sessionHeaders(other));
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
    const brokenInit = await post(url, '{not json');
    expect(brokenInit.status).toBe(400);
    expect(((await brokenInit.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const wrongType = await post(url, 'hello', { 'Content-Type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    expect((await listTools(url, other)).names?.sort()).toEqual(['echo', 'whoami']);
  });

  it('refuses compressed, non-UTF-8, empty and streamed oversized bodies with JSON-RPC errors', async () => {
    server = await startServer({ maxRequestBodyBytes: 1024 });
    const { url } = server.address;
    const gzip = await post(url, INITIALIZE, { 'Content-Encoding': 'gzip' });
    expect(gzip.status).toBe(415);
    const latin1 = await post(url, INITIALIZE, { 'Content-Type': 'application/json; charset=latin1' });
    expect(latin1.status).toBe(415);
    const utf8 = await post(url, INITIALIZE, { 'Content-Type': 'application/json; charset=UTF-8' });
    expect(utf8.status).toBe(200);
    await utf8.text();
    const empty = await post(url, '');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: { code: -32700 } });
    const chunk = new TextEncoder().encode(' '.repeat(512));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i += 1) controller.enqueue(chunk); // 2 KiB, no Content-Length
        controller.close();
      },
    });
    const streamed = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await openSession(url)).length).toBeGreaterThan(0);
  });

  it('has CORS off by default', async () => {
    server = await startServer();
    const response = await post(server.address.url, INITIALIZE, { Origin: 'http://localhost:5173' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    await response.text();
  });

  it('with cors configured: preflight allows the MCP headers, responses expose Mcp-Session-Id', async () => {
    server = await startServer({ cors: { origin: 'http://localhost:5173' } });
    const { url } = server.address;
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, mcp-protocol-version, authorization, last-event-id',
      },
    });
    expect(preflight.status).toBe(204);
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['mcp-protocol-version', 'last-event-id', 'authorization', 'mcp-session-id']) {
      expect(allowed).toContain(header);
    }
    const response = await post(url, INITIALIZE, { Origin: 'http://localhost:5173' });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect((response.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('mcp-session-id');
    await response.text();
  });
});

describe('HttpMcpServer authenticate hook', () => {
  let server: HttpMcpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  const TOKENS: Record<string, string> = { 'token-alice': 'alice', 'token-bob': 'bob' };
  const authenticate = (req: http.IncomingMessage) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (token === 'token-expired')
      throw new AuthenticationError('Unauthorized: token expired', { challenge: 'Bearer error="invalid_token"' });
    const clientId = token ? TOKENS[token] : undefined;
    return clientId ? { token: token!, clientId, scopes: [] } : undefined;
  };
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('guards every legacy request, not only initialize: 401 with WWW-Authenticate', async () => {
    server = await startServer({ authenticate });
    const { url } = server.address;
    const anonymous = await post(url, INITIALIZE);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="http-test"');

    const id = await openSession(url, as('token-alice'));
    expect((await listTools(url, id, as('token-alice'))).status).toBe(200);
    const stolen = await listTools(url, id, as('token-nobody'));
    expect(stolen.status).toBe(401);
    const expired = await post(
      url,
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      sessionHeaders(id, as('token-expired')),
    );
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await expired.json()).toMatchObject({ error: { message: 'Unauthorized: token expired' } });
    const stream = await fetch(url, { headers: { Accept: 'text/event-stream', ...sessionHeaders(id) } });
    expect(stream.status).toBe(401);
    const deleted = await fetch(url, { method: 'DELETE', headers: sessionHeaders(id) });
    expect(deleted.status).toBe(401);
    // Another principal cannot use alice's session: to bob it does not exist.
    expect((await listTools(url, id, as('token-bob'))).status).toBe(404);
  });

  it('tools see the auth info on both eras; the modern era is guarded too', async () => {
    server = await startServer({ authenticate });
    const url = new URL(server.address.url);
    for (const kind of ['v2-legacy', 'v2-modern'] as const) {
      const transport = new HttpV2(url, { requestInit: { headers: as('token-bob') } });
      const client = await connectClient(kind, transport);
      const result = await client.callTool('whoami', {});
      expect(JSON.parse(result.content[0]?.text ?? '{}')).toMatchObject({ clientId: 'bob' });
      await client.close();
    }
    const modern = new HttpV2(url);
    await expect(connectClient('v2-modern', modern)).rejects.toThrow(/401|Unauthorized/);
  });

  it('canAccess filters tools per caller on both eras: hidden from tools/list, refused on call', async () => {
    server = await startServer({ authenticate });
    server.registerTool(
      defineTool({ name: 'alice_only', canAccess: (auth) => auth?.clientId === 'alice', execute: () => 'secret' }),
    );
    const url = new URL(server.address.url);
    for (const kind of ['v1', 'v2-legacy', 'v2-modern'] as const) {
      const connect = (token: string) =>
        connectClient(
          kind,
          kind === 'v1'
            ? new HttpV1(url, { requestInit: { headers: as(token) } })
            : new HttpV2(url, { requestInit: { headers: as(token) } }),
        );
      const alice = await connect('token-alice');
      const bob = await connect('token-bob');
      expect(await alice.toolNames()).toContain('alice_only');
      expect(await bob.toolNames()).not.toContain('alice_only');
      expect((await alice.callTool('alice_only', {})).content[0]?.text).toBe('secret');
      await expect(bob.callTool('alice_only', {})).rejects.toThrow(/Unknown tool "alice_only"/);
      await alice.close();
      await bob.close();
    }
  });

  it("works with the SDK's verifyBearerToken: invalid_token 401 / insufficient_scope 403 with resource_metadata", async () => {
    const resourceMetadataUrl = 'https://mcp.example.com/.well-known/oauth-protected-resource';
    const verifier = {
      verifyAccessToken: async (token: string) => {
        if (token !== 'good' && token !== 'reader') throw new OAuthError('invalid_token', 'unknown token');
        const scopes = token === 'good' ? ['mcp:write'] : ['mcp:read'];
        return { token, clientId: token, scopes, expiresAt: Math.floor(Date.now() / 1000) + 3600 };
      },
    };
    server = await startServer({
      resourceMetadataUrl,
      authenticate: (req) =>
        verifyBearerToken(req.headers.authorization, { verifier, requiredScopes: ['mcp:write'], resourceMetadataUrl }),
    });
    const { url } = server.address;
    const missing = await post(url, INITIALIZE);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toContain(`resource_metadata="${resourceMetadataUrl}"`);
    const bad = await post(url, INITIALIZE, as('nope'));
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/error="invalid_token".*resource_metadata=/);
    const weak = await post(url, INITIALIZE, as('reader'));
    expect(weak.status).toBe(403);
    expect(weak.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    expect((await post(url, INITIALIZE, as('good'))).status).toBe(200);
  });

  it('initialize without credentials is refused before any session is made', async () => {
    server = await startServer({ authenticate });
    const response = await post(server.address.url, INITIALIZE);
    expect(response.status).toBe(401);
    expect(await messages(response)).toEqual([expect.objectContaining({ error: expect.anything() })]);
    expect(server.sessionCount).toBe(0);
  });
});
