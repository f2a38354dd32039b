// The `authorization` option, adminRouter's options and connectInMemory's `auth`: a wrong value is
// refused where it is given with an InvalidOptionsError (code INVALID_OPTIONS) naming the option,
// what it must be and what it got, never a plain TypeError (before: at start(), or when a request came).
import { describe, expect, it } from 'vitest';
import { adminRouter } from '../../src/admin/admin-router.js';
import { authInfoForPrincipal } from '../../src/auth/principal.js';
import { InvalidOptionsError } from '../../src/errors.js';
import { toFetchHandler, FetchMcpServer } from '../../src/mcp/fetch-server.js';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import { connectInMemory } from '../../src/testing/connect-in-memory.js';
import { refusal } from '../support/option-refusal.js';

const INFO = { name: 'auth-options-test', version: '1.0.0' };
const ISSUER = 'https://as.example.com/realms/mcp';

describe('the authorization option', () => {
  const http = (authorization: unknown) => () => new HttpMcpServer(INFO, { authorization: authorization as never });

  it('a bad value is refused at construction, naming the option, what it must be and what it got', () => {
    const cases: Array<[unknown, string, string, string]> = [
      [{}, 'authorization.issuer', 'an absolute http(s) URL without a fragment', 'undefined'],
      [{ issuer: 'not a url' }, 'authorization.issuer', 'an absolute http(s) URL without a fragment', '"not a url"'],
      [{ issuer: 'ftp://as.example.com' }, 'authorization.issuer', 'an absolute http(s) URL', '"ftp://as.example.com"'],
      [
        { issuer: ISSUER, audience: 'https://mcp.example.com/mcp#x' },
        'authorization.audience',
        'without a fragment',
        '"https://mcp.example.com/mcp#x"',
      ],
      [
        { issuer: ISSUER, requiredScopes: 'notes:read' },
        'authorization.requiredScopes',
        'an array of scope tokens',
        '"notes:read"',
      ],
      [
        { issuer: ISSUER, scopesSupported: ['a b'] },
        'authorization.scopesSupported',
        'scope tokens',
        'an array (1 entries)',
      ],
      [{ issuer: ISSUER, adminScope: 'has space' }, 'authorization.adminScope', 'a scope token', '"has space"'],
      [
        { issuer: ISSUER, algorithms: ['RS256', 'HS256'] },
        'authorization.algorithms',
        'without "none" or HMAC',
        'an array (2 entries)',
      ],
      [{ issuer: ISSUER, algorithms: ['none'] }, 'authorization.algorithms', 'without "none"', 'an array (1 entries)'],
      [{ issuer: ISSUER, clockToleranceSec: -1 }, 'authorization.clockToleranceSec', 'seconds >= 0', '-1'],
      [{ issuer: ISSUER, jwksCooldownMs: '30s' }, 'authorization.jwksCooldownMs', 'milliseconds', '"30s"'],
      [{ issuer: ISSUER, jwksUri: '/jwks' }, 'authorization.jwksUri', 'absolute http(s) URL', '"/jwks"'],
      [{ issuer: ISSUER, verifyToken: 'yes' }, 'authorization.verifyToken', 'a function', '"yes"'],
      [
        { issuer: ISSUER, introspection: { clientId: 'rs' } },
        'authorization.introspection.clientSecret',
        'a non-empty string',
        'undefined',
      ],
      [
        { issuer: ISSUER, resourceDocumentation: 'docs' },
        'authorization.resourceDocumentation',
        'http(s) URL',
        '"docs"',
      ],
    ];
    for (const [authorization, option, expected, received] of cases) {
      const error = refusal(http(authorization));
      expect([error.option, error.received]).toEqual([option, received]);
      expect(error.expected).toContain(expected);
      expect(error.message).toContain(`HttpMcpServer option ${option} must be`);
    }
  });

  it('unknown keys are named with the nearest known one; toFetchHandler checks it too', () => {
    expect(refusal(http({ issuer: ISSUER, audiences: ['x'] })).message).toContain(
      '"audiences" (did you mean "audience"?)',
    );
    expect(
      refusal(http({ issuer: ISSUER, introspection: { clientId: 'a', clientSecret: 'b', endpiont: 'x' } })).unknownKeys,
    ).toEqual(['endpiont']);
    const fetchServer = new FetchMcpServer(INFO);
    const error = refusal(() => toFetchHandler(fetchServer, { authorization: { issuer: 'nope' } }));
    expect(error.message).toContain('toFetchHandler option authorization.issuer must be');
    const empty = refusal(() => toFetchHandler(fetchServer, { authorization: { issuer: ISSUER, algorithms: [] } }));
    expect(empty.option).toBe('authorization.algorithms');
  });

  it('every documented field with a good value is accepted', () => {
    expect(
      http({
        issuer: ISSUER,
        audience: 'https://mcp.example.com/mcp',
        scopesSupported: ['notes:read', 'mcp:admin'],
        requiredScopes: ['notes:read'],
        adminScope: 'mcp:admin',
        algorithms: ['RS256', 'EdDSA'],
        clockToleranceSec: 0,
        jwksCooldownMs: 0,
        jwksUri: 'https://as.example.com/jwks',
        introspection: { clientId: 'rs', clientSecret: 'secret', endpoint: 'https://as.example.com/introspect' },
        verifyToken: () => ({}),
        resourceName: 'notes',
        resourceDocumentation: 'https://mcp.example.com/docs',
      }),
    ).not.toThrow();
  });
});

describe('adminRouter options', () => {
  const server = new HttpMcpServer(INFO);
  const TOKEN = 'admin-token-0123456789abcdef';

  it('no credentials or a short token: INVALID_OPTIONS naming token; the admin API is never open', () => {
    for (const [options, received] of [
      [{}, 'undefined'],
      [{ token: 'short' }, '"short"'],
      [{ token: 1234 }, '1234'],
    ] as const) {
      const error = refusal(() => adminRouter(server, options as never));
      expect([error.option, error.received]).toEqual(['token', received]);
      expect(error.message).toContain('adminRouter option token must be a string of at least 16 characters');
      expect(error.message).toContain('never open');
    }
  });

  it('options that are not an object, unknown keys and wrong values are refused', () => {
    expect(refusal(() => adminRouter(server, null as never)).option).toBe('options');
    expect(refusal(() => adminRouter(server, { token: TOKEN, allowRemotes: true } as never)).message).toContain(
      '"allowRemotes" (did you mean "allowRemote"?)',
    );
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ token: TOKEN, allowRemote: 'yes' }, 'allowRemote'],
      [{ token: TOKEN, allowedHosts: 'localhost' }, 'allowedHosts'],
      [{ token: TOKEN, statistics: 1 }, 'statistics'],
      [{ token: TOKEN, keepAliveMs: 0 }, 'keepAliveMs'],
      [{ authenticate: 'admin' }, 'authenticate'],
    ];
    for (const [options, option] of cases)
      expect(refusal(() => adminRouter(server, options as never)).option).toBe(option);
    expect(() => adminRouter(server, { authenticate: () => true, statistics: false, keepAliveMs: 1000 })).not.toThrow();
  });
});

describe("connectInMemory's auth (authInfoForPrincipal)", () => {
  it('a bad principal is refused with INVALID_OPTIONS, not a TypeError', async () => {
    expect(refusal(() => authInfoForPrincipal({ scopes: 'notes:read' } as never)).option).toBe('auth.scopes');
    expect(refusal(() => authInfoForPrincipal({ resource: 'not a url' })).option).toBe('auth.resource');
    expect(refusal(() => authInfoForPrincipal({ scope: ['x'] } as never)).message).toContain(
      '"scope" (did you mean "scopes"?)',
    );
    const server = new HttpMcpServer(INFO);
    await expect(connectInMemory(server, { auth: { subject: 7 } as never })).rejects.toBeInstanceOf(
      InvalidOptionsError,
    );
  });
});
