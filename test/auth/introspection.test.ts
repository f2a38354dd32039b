// Opaque access tokens verified by RFC 7662 introspection against a real authorization server
// (oidc-provider's introspection endpoint, found through its discovery document): active tokens
// reach the tools with their principal, inactive / foreign-audience tokens get 401 invalid_token,
// and without `introspection` configured an opaque token is refused.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/registry/tool.js';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { principalOf } from '../../src/auth/principal.js';
import { bearer, connectWithToken } from '../support/bearer-clients.js';
import { CLIENT, OTHER_CLIENT, TestAuthorizationServer } from '../support/oidc.js';
import { INITIALIZE, post, startServer } from '../e2e/http-helpers.js';

describe('opaque access tokens through RFC 7662 introspection', () => {
  let as: TestAuthorizationServer;
  let server: HttpMcpServer | undefined;
  beforeAll(async () => {
    as = await TestAuthorizationServer.start();
    as.tokenFormat = 'opaque';
  });
  afterAll(async () => {
    await as?.close();
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  const start = async (introspection = true) => {
    const started = await startServer({
      authorization: {
        issuer: as.issuer,
        requiredScopes: ['tools:read'],
        ...(introspection && { introspection: { clientId: CLIENT.id, clientSecret: CLIENT.secret } }),
      },
    });
    started.registerTool(
      defineTool({
        name: 'principal',
        execute: (_args, context) => JSON.stringify(principalOf(context.authInfo) ?? null),
      }),
    );
    return started;
  };

  it.each(['v1', 'v2-legacy', 'v2-modern'] as const)(
    '%s: an opaque token is introspected and its principal reaches the tool',
    async (kind) => {
      server = await start();
      const { url } = server.address;
      const token = await as.userToken(url, 'alice', ['tools:read', 'tools:write']);
      expect(token.split('.')).toHaveLength(1); // opaque, not a JWT
      const client = await connectWithToken(kind, url, token);
      const principal = JSON.parse((await client.callTool('principal', {})).content[0]?.text ?? 'null');
      expect(principal).toMatchObject({
        subject: 'alice',
        clientId: CLIENT.id,
        scopes: ['tools:read', 'tools:write'],
        claims: { active: true, aud: url, iss: as.issuer },
      });
      await client.close();
    },
  );

  it("another client's token is introspected too (the resource server authenticates as its own client)", async () => {
    server = await start();
    const { url } = server.address;
    const client = await connectWithToken('v2-modern', url, await as.token(url, ['tools:read'], OTHER_CLIENT));
    const principal = JSON.parse((await client.callTool('principal', {})).content[0]?.text ?? 'null');
    expect(principal).toMatchObject({ clientId: OTHER_CLIENT.id, scopes: ['tools:read'] });
    await client.close();
  });

  it('inactive, foreign-audience and under-scoped opaque tokens are refused', async () => {
    server = await start();
    const { url } = server.address;
    const unknown = await post(url, INITIALIZE, bearer('x'.repeat(43)));
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toContain(
      'error="invalid_token", error_description="Unauthorized: the access token is not active"',
    );
    const foreign = await post(url, INITIALIZE, bearer(await as.token('https://other.example/mcp', ['tools:read'])));
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('www-authenticate')).toContain('(aud)');
    const writer = await post(url, INITIALIZE, bearer(await as.token(url, ['tools:write'])));
    expect(writer.status).toBe(403);
    expect(writer.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('without introspection configured an opaque token gets 401 invalid_token', async () => {
    server = await start(false);
    const { url } = server.address;
    const response = await post(url, INITIALIZE, bearer(await as.token(url, ['tools:read'])));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      'error_description="Unauthorized: the access token is not a JWT and introspection is not configured"',
    );
  });
});
