// A token verified lately is accepted without a promise (ResourceServer.accepted), from the
// connection's last accepted request or the remembered-JWT cache. These tests pin what that shortcut
// must never change: a new or different token, a query string, a missing scope, or a token past its
// `exp` still goes through the full check; and the AuthInfo the token's requests share is frozen, so
// one request's tool cannot change what another sees. Real RS256 JWTs against a JWKS served on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ResourceServer } from '../../src/auth/resource-server.js';
import { principalOf } from '../../src/auth/principal.js';
import { AuthenticationError } from '../../src/errors.js';

const AUDIENCE = 'https://mcp.example.com/mcp';

describe('remembered tokens (ResourceServer.accepted)', () => {
  let issuerServer: http.Server;
  let issuer: string;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  let rs: ResourceServer;

  const token = (subject: string, { scope = 'tools:read', expiresIn = '1h' } = {}) =>
    new SignJWT({ scope, client_id: `client-${subject}` })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(privateKey);
  const request = (jwt: string, connection?: object, url = '/mcp') => ({
    authorization: `Bearer ${jwt}`,
    url,
    connection,
  });

  beforeAll(async () => {
    const keys = await generateKeyPair('RS256');
    privateKey = keys.privateKey;
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    issuerServer = http.createServer((req, res) => {
      const body = req.url === '/jwks' ? { keys: [jwk] } : { issuer, jwks_uri: `${issuer}/jwks` };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
    rs = new ResourceServer({ issuer, audience: AUDIENCE, requiredScopes: ['tools:read'], clockToleranceSec: 0 }, 't');
  });
  afterAll(() => new Promise<void>((resolve) => issuerServer.close(() => resolve())));
  afterEach(() => vi.useRealTimers());

  it('a token is accepted without a promise only once verified, with one frozen AuthInfo for its requests', async () => {
    const jwt = await token('alice');
    expect(rs.accepted(request(jwt), AUDIENCE)).toBeUndefined();
    const verified = await rs.authenticate(request(jwt), AUDIENCE);
    const again = rs.accepted(request(jwt), AUDIENCE);
    expect(again).toBe(verified);
    expect(principalOf(again)).toMatchObject({ subject: 'alice', clientId: 'client-alice', scopes: ['tools:read'] });
    for (const part of [again, again!.scopes, again!.extra, principalOf(again), principalOf(again)!.scopes]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
    expect(() => (again!.scopes as string[]).push('admin')).toThrow(TypeError);
  });

  it("a connection's next request with another token is checked in full, and answered as that token", async () => {
    const connection = {};
    const [alice, bob] = await Promise.all([token('alice'), token('bob')]);
    await rs.authenticate(request(alice, connection), AUDIENCE);
    expect(principalOf(rs.accepted(request(alice, connection), AUDIENCE))?.subject).toBe('alice');
    expect(rs.accepted(request(bob, connection), AUDIENCE)).toBeUndefined();
    await rs.authenticate(request(bob, connection), AUDIENCE);
    expect(principalOf(rs.accepted(request(bob, connection), AUDIENCE))?.subject).toBe('bob');
    expect(principalOf(rs.accepted(request(alice, connection), AUDIENCE))?.subject).toBe('alice');
  });

  it('a query string, another resource or a missing scope is left to the full check', async () => {
    const connection = {};
    const jwt = await token('carol');
    await rs.authenticate(request(jwt, connection), AUDIENCE);
    expect(rs.accepted(request(jwt, connection, `/mcp?access_token=${jwt}`), AUDIENCE)).toBeUndefined();
    await expect(rs.authenticate(request(jwt, connection, `/mcp?access_token=${jwt}`), AUDIENCE)).rejects.toThrow(
      /query string/,
    );
    expect(rs.accepted(request(jwt, connection), 'https://other.example.com/mcp')).toBeUndefined();
    expect(rs.accepted(request(jwt, connection), AUDIENCE, ['tools:write'])).toBeUndefined();
    const refusal = await Promise.resolve(rs.authenticate(request(jwt, connection), AUDIENCE, ['tools:write'])).catch(
      (e) => e,
    );
    expect(refusal).toBeInstanceOf(AuthenticationError);
    expect(refusal.status).toBe(403);
  });

  it('a token past its exp is no longer accepted on the same connection, and the full check refuses it', async () => {
    const connection = {};
    const jwt = await token('dave', { expiresIn: '30s' });
    await rs.authenticate(request(jwt, connection), AUDIENCE);
    expect(rs.accepted(request(jwt, connection), AUDIENCE)).toBeDefined();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    expect(rs.accepted(request(jwt, connection), AUDIENCE)).toBeUndefined();
    expect(rs.accepted(request(jwt), AUDIENCE)).toBeUndefined();
    await expect(rs.authenticate(request(jwt, connection), AUDIENCE)).rejects.toThrow(/expired/);
  });
});
