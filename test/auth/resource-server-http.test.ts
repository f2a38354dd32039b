// HttpMcpServer({ authorization }) against a real authorization server (oidc-provider, JWT access
// tokens for RFC 8707 resource indicators): metadata, token verification and the 401/403
// challenges on both eras, with the v2 client (modern and legacy) and the v1 client.
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import type { HttpMcpServerOptions } from '../../src/mcp/transports/http/options.js';
import { CLIENT_KINDS, connectClient } from '../support/clients.js';
import { OTHER_CLIENT, TestAuthorizationServer } from '../support/oidc.js';
import { INITIALIZE, listTools, openSession, post, startServer } from '../e2e/http-helpers.js';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function transportOf(kind: (typeof CLIENT_KINDS)[number], url: string, token: string): unknown {
  const requestInit = { headers: bearer(token) };
  return kind === 'v1' ? new HttpV1(new URL(url), { requestInit }) : new HttpV2(new URL(url), { requestInit });
}

describe('HttpMcpServer authorization (OAuth resource server)', () => {
  let as: TestAuthorizationServer;
  let server: HttpMcpServer | undefined;
  beforeAll(async () => {
    as = await TestAuthorizationServer.start();
  });
  afterAll(async () => {
    await as?.close();
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    as.ttlSec = 300;
  });

  const start = (authorization: Partial<NonNullable<HttpMcpServerOptions['authorization']>> = {}, extra = {}) =>
    startServer({
      authorization: {
        issuer: as.issuer,
        requiredScopes: ['tools:read'],
        clockToleranceSec: 0,
        jwksCooldownMs: 0,
        ...authorization,
      },
      ...extra,
    });

  it('serves RFC 9728 metadata at the well-known path and its path-suffixed form', async () => {
    server = await start({ scopesSupported: ['tools:read', 'tools:write'] });
    const { url } = server.address;
    const origin = new URL(url).origin;
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: url,
        authorization_servers: [as.issuer],
        scopes_supported: ['tools:read', 'tools:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'http-test',
      });
    }
  });

  it('401 without a token on every request of both eras, with resource_metadata and scope', async () => {
    server = await start();
    const { url } = server.address;
    const expected = `Bearer resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp", scope="tools:read"`;
    const legacy = await post(url, INITIALIZE);
    expect(legacy.status).toBe(401);
    expect(legacy.headers.get('www-authenticate')).toBe(expected);
    const stream = await fetch(url, { headers: { Accept: 'text/event-stream' } });
    expect(stream.status).toBe(401);
    for (const kind of ['v2-modern', 'v2-legacy'] as const) {
      await expect(connectClient(kind, new HttpV2(new URL(url)))).rejects.toThrow(/401|Unauthorized/);
    }
  });

  it.each(CLIENT_KINDS)('%s: a token from the authorization server reaches the tools', async (kind) => {
    server = await start();
    const { url } = server.address;
    const client = await connectClient(kind, transportOf(kind, url, await as.token(url, ['tools:read'])));
    expect(await client.toolNames()).toEqual(expect.arrayContaining(['echo', 'whoami']));
    const result = await client.callTool('whoami', {});
    expect(JSON.parse(result.content[0]?.text ?? '{}')).toMatchObject({ clientId: 'svc-client' });
    await client.close();
  });

  it('expired token: 401 invalid_token', async () => {
    server = await start();
    const { url } = server.address;
    as.ttlSec = 1;
    const token = await as.token(url, ['tools:read']);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const response = await post(url, INITIALIZE, bearer(token));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="[^"]+", scope="tools:read", error="invalid_token", error_description="Unauthorized: the access token has expired"$/,
    );
    expect(await response.json()).toMatchObject({ error: { message: 'Unauthorized: the access token has expired' } });
  });

  it('a token verified once (and remembered) is still refused once it expires', async () => {
    server = await start();
    const { url } = server.address;
    as.ttlSec = 2;
    const token = await as.token(url, ['tools:read']);
    expect((await post(url, INITIALIZE, bearer(token))).status).toBe(200);
    expect((await post(url, INITIALIZE, bearer(token))).status).toBe(200); // from the verified-token cache
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const response = await post(url, INITIALIZE, bearer(token));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('the access token has expired');
  });

  it('token for another resource (aud): 401 invalid_token on both eras', async () => {
    server = await start();
    const { url } = server.address;
    const token = await as.token('https://other.example/mcp', ['tools:read']);
    const response = await post(url, INITIALIZE, bearer(token));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('(aud)') } });
    await expect(connectClient('v2-modern', transportOf('v2-modern', url, token))).rejects.toThrow(/401|Unauthorized/);
  });

  it('a token without the required scope: 403 insufficient_scope naming the scope', async () => {
    server = await start();
    const { url } = server.address;
    const token = await as.token(url, ['tools:write']);
    const response = await post(url, INITIALIZE, bearer(token));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp", scope="tools:write tools:read", error="insufficient_scope", error_description="Forbidden: this needs the scope tools:read"`,
    );
    await expect(connectClient('v2-modern', transportOf('v2-modern', url, token))).rejects.toThrow(
      /Insufficient scope: required "tools:write tools:read"/,
    );
  });

  it('JWKS key rotation mid-run: tokens signed with the new key verify without a restart', async () => {
    server = await start();
    const { url } = server.address;
    const before = await as.token(url, ['tools:read']);
    const id = await openSession(url, bearer(before));
    expect((await listTools(url, id, bearer(before))).status).toBe(200);
    await as.rotateKeys();
    const after = await as.token(url, ['tools:read']);
    expect((await listTools(url, id, bearer(after))).status).toBe(200);
    const client = await connectClient('v2-modern', transportOf('v2-modern', url, after));
    expect(await client.toolNames()).toContain('echo');
    await client.close();
  });

  it('refuses tokens in the query string and malformed Authorization headers', async () => {
    server = await start();
    const { url } = server.address;
    const token = await as.token(url, ['tools:read']);
    const query = await post(`${url}?access_token=${token}`, INITIALIZE, bearer(token));
    expect(query.status).toBe(401);
    expect(query.headers.get('www-authenticate')).toContain('error="invalid_request"');
    const basic = await post(url, INITIALIZE, { Authorization: `Basic ${token}` });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toContain('error="invalid_request"');
    const garbage = await post(url, INITIALIZE, bearer('not-a-jwt'));
    expect(garbage.status).toBe(401);
    expect(garbage.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it("a legacy session is bound to the principal that opened it: another client's token gets 404", async () => {
    server = await start();
    const { url } = server.address;
    const mine = await as.token(url, ['tools:read']);
    const id = await openSession(url, bearer(mine));
    const again = await as.token(url, ['tools:read']); // a new token of the same principal
    expect((await listTools(url, id, bearer(again))).status).toBe(200);
    const theirs = await as.token(url, ['tools:read'], OTHER_CLIENT);
    expect((await listTools(url, id, bearer(theirs))).status).toBe(404);
  });

  it("a legacy session is bound to the user too: the same client with another user's token gets 404", async () => {
    server = await start();
    const { url } = server.address;
    const id = await openSession(url, bearer(await as.userToken(url, 'alice', ['tools:read'])));
    expect((await listTools(url, id, bearer(await as.userToken(url, 'alice', ['tools:read'])))).status).toBe(200);
    const bob = await as.userToken(url, 'bob', ['tools:read']);
    const refused = await listTools(url, id, bearer(bob));
    expect(refused.status).toBe(404);
    // Bob's own session works.
    const client = await connectClient('v2-legacy', transportOf('v2-legacy', url, bob));
    expect(await client.toolNames()).toContain('echo');
    await client.close();
  });

  it('stateless mode guards every request too', async () => {
    server = await start({}, { stateless: true });
    const { url } = server.address;
    expect((await post(url, INITIALIZE)).status).toBe(401);
    const client = await connectClient('v1', transportOf('v1', url, await as.token(url, ['tools:read'])));
    expect(await client.toolNames()).toContain('echo');
    await client.close();
  });

  it('refuses authorization together with authenticate, and bad issuer URLs', async () => {
    await expect(() => start({}, { authenticate: () => undefined })).rejects.toThrow(/exclude each other/);
    await expect(() => start({ issuer: 'not a url' })).rejects.toThrow(
      /authorization\.issuer must be an absolute http\(s\) URL/,
    );
  });
});
