// authorization.verifyToken: an app's own token check replaces JWT / introspection; the resource
// server still answers 401 invalid_token (with the app's message) and 403 insufficient_scope, and
// the claims become the principal tools see. Over real HTTP with the v2 client in both eras.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../src/errors.js';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { principalOf, type AccessTokenVerifier } from '../../src/public/auth.js';
import { defineTool } from '../../src/registry/tool.js';
import { bearer, connectWithToken } from '../support/bearer-clients.js';
import { INITIALIZE, post, startServer } from '../e2e/http-helpers.js';

const KEYS: Record<string, { sub: string; scope: string }> = {
  'key-alice': { sub: 'alice', scope: 'tools:read notes:write' },
  'key-bob': { sub: 'bob', scope: 'notes:write' },
};

describe('authorization.verifyToken (own token verifier)', () => {
  let server: HttpMcpServer;
  let seenResource: string | undefined;
  beforeAll(async () => {
    const verifyToken: AccessTokenVerifier = (token, resource) => {
      seenResource = resource;
      if (token === 'key-expired') return { sub: 'carol', scope: 'tools:read', exp: 1 };
      if (token === 'key-broken') throw new Error('database down');
      const key = KEYS[token];
      if (!key) throw new AuthenticationError('Unauthorized: unknown API key');
      return { ...key, client_id: 'gateway' };
    };
    server = await startServer({
      authorization: { issuer: 'https://auth.example.com', requiredScopes: ['tools:read'], verifyToken },
    });
    server.registerTool(
      defineTool({ name: 'principal', execute: (_args, context) => JSON.stringify(principalOf(context.authInfo)) }),
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(['v2-legacy', 'v2-modern'] as const)(
    '%s: the verified claims reach the tool as the principal',
    async (kind) => {
      const client = await connectWithToken(kind, server.address.url, 'key-alice');
      const principal = JSON.parse((await client.callTool('principal', {})).content[0]?.text ?? 'null');
      expect(principal).toMatchObject({ subject: 'alice', clientId: 'gateway', scopes: ['tools:read', 'notes:write'] });
      expect(seenResource).toBe(server.address.url);
      await client.close();
    },
  );

  it('refusals: the thrown message, a generic one for other errors, exp, and missing scopes', async () => {
    const { url } = server.address;
    const challenge = async (token: string) => {
      const response = await post(url, INITIALIZE, bearer(token));
      return [response.status, response.headers.get('www-authenticate')] as const;
    };
    const [unknownStatus, unknown] = await challenge('key-nobody');
    expect(unknownStatus).toBe(401);
    expect(unknown).toContain('error="invalid_token", error_description="Unauthorized: unknown API key"');
    expect((await challenge('key-broken'))[1]).toContain(
      'error_description="Unauthorized: the access token is invalid"',
    );
    expect((await challenge('key-expired'))[1]).toContain('the access token has expired');
    const [bobStatus, bob] = await challenge('key-bob');
    expect(bobStatus).toBe(403);
    expect(bob).toContain('error="insufficient_scope"');
  });

  it('verifyToken must be a function', async () => {
    await expect(
      startServer({ authorization: { issuer: 'https://auth.example.com', verifyToken: 'yes' as never } }),
    ).rejects.toThrow(/verifyToken must be a function/);
  });
});
