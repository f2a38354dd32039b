import { assertKnownOptions, optionKeys } from '../known-options.js';

/**
 * RFC 7662 token introspection for opaque (non-JWT) access tokens: the endpoint and the
 * credentials this resource server authenticates to it with (HTTP Basic, RFC 7662 section 2.1).
 */
export interface IntrospectionOptions {
  /** The introspection endpoint; default the issuer metadata's `introspection_endpoint`. */
  endpoint?: string;
  /** Client id of this resource server at the authorization server. */
  clientId: string;
  /** Its client secret. */
  clientSecret: string;
}

/**
 * An app's own access-token check, replacing the built-in JWT / introspection verification (for
 * a token format those do not cover). Receives the bearer token and this resource's identifier
 * (the audience the token must be for) and returns the token's claims: `sub`, `client_id`,
 * `scope` (space-separated) or `scp`, `exp` (seconds), and any others (they become the
 * `Principal`'s). Throw to refuse the token: the message of a thrown `AuthenticationError`
 * is sent in the 401 `invalid_token` challenge, any other error is answered "the access token is
 * invalid". Required scopes and an `exp` in the past (beyond the clock tolerance) are still
 * checked by the resource server.
 */
export type AccessTokenVerifier = (
  token: string,
  resource: string,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/**
 * `HttpMcpServer({ authorization })`: the server becomes an OAuth 2.1 resource server
 * (MCP authorization, 2025-06-18 and later): it serves RFC 9728 protected-resource metadata,
 * verifies bearer access tokens issued by `issuer` on every MCP request of both eras, and
 * answers 401/403 with RFC 6750 challenges. See docs/authorization.md.
 */
export interface AuthorizationOptions {
  /** The authorization server's issuer identifier (`iss`), e.g. `https://auth.example.com/realms/mcp`. */
  issuer: string;
  /**
   * This resource's identifier: the `aud` every token must carry (RFC 8707) and the metadata's
   * `resource`. Default the MCP endpoint's URL as the server is reached (`server.address.url`);
   * set it to the public URL behind a proxy.
   */
  audience?: string;
  /** `scopes_supported` of the metadata (RFC 9728 section 2). Default: `requiredScopes` plus the admin scope. */
  scopesSupported?: string[];
  /** Scopes every MCP request needs (403 `insufficient_scope` without them). Default none. */
  requiredScopes?: string[];
  /** Scope that admits a token to the admin surface (`adminRouter`). Default `mcp:admin`. */
  adminScope?: string;
  /** JWS algorithms accepted on access tokens. Default `RS256`, `PS256`, `ES256`, `EdDSA` (never `none` or HMAC). */
  algorithms?: string[];
  /** Allowed clock skew on `exp` / `nbf` / `iat` (seconds). Default 30. */
  clockToleranceSec?: number;
  /** Shortest gap between two JWKS fetches when an unknown `kid` appears (key rotation; ms). Default 30,000. */
  jwksCooldownMs?: number;
  /** Override the JWKS URL (default the issuer metadata's `jwks_uri`). */
  jwksUri?: string;
  /** Verify opaque tokens by RFC 7662 introspection; without it, only JWT access tokens are accepted. */
  introspection?: IntrospectionOptions;
  /** Verify tokens with the app's own function instead of JWT / introspection (see {@link AccessTokenVerifier}). */
  verifyToken?: AccessTokenVerifier;
  /** `resource_name` of the metadata (RFC 9728). Default the server name. */
  resourceName?: string;
  /** `resource_documentation` of the metadata. */
  resourceDocumentation?: string;
}

const KEYS = optionKeys<AuthorizationOptions>()([
  'issuer',
  'audience',
  'scopesSupported',
  'requiredScopes',
  'adminScope',
  'algorithms',
  'clockToleranceSec',
  'jwksCooldownMs',
  'jwksUri',
  'introspection',
  'verifyToken',
  'resourceName',
  'resourceDocumentation',
]);

/** The options after defaults were applied (internal). */
export interface ResolvedAuthorization {
  readonly issuer: string;
  readonly audience?: string;
  readonly scopesSupported: readonly string[];
  readonly requiredScopes: readonly string[];
  readonly adminScope: string;
  readonly algorithms: string[];
  readonly clockToleranceSec: number;
  readonly jwksCooldownMs: number;
  readonly jwksUri?: string;
  readonly introspection?: IntrospectionOptions;
  readonly verifyToken?: AccessTokenVerifier;
  readonly resourceName?: string;
  readonly resourceDocumentation?: string;
}

/** The admin scope when none is configured. */
export const DEFAULT_ADMIN_SCOPE = 'mcp:admin';

function absoluteUrl(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`authorization.${name} must be a URL string`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`authorization.${name} must be an absolute URL, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`authorization.${name} must be an http(s) URL, got "${value}"`);
  }
  if (url.hash) throw new TypeError(`authorization.${name} must not have a fragment (RFC 8707 section 2)`);
  return value;
}

function scopes(name: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (
    !Array.isArray(value) ||
    value.some((scope) => typeof scope !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))
  ) {
    throw new TypeError(`authorization.${name} must be an array of scope tokens (RFC 6749 section 3.3)`);
  }
  return value as string[];
}

/**
 * Applies the documented defaults.
 * @throws InvalidOptionsError on an unknown key; TypeError on a malformed URL, scope or number.
 */
export function resolveAuthorization(options: AuthorizationOptions): ResolvedAuthorization {
  assertKnownOptions('HttpMcpServer authorization option', options, KEYS);
  const requiredScopes = scopes('requiredScopes', options.requiredScopes);
  const adminScope = options.adminScope ?? DEFAULT_ADMIN_SCOPE;
  scopes('adminScope', [adminScope]);
  const clock = options.clockToleranceSec ?? 30;
  const cooldown = options.jwksCooldownMs ?? 30_000;
  if (!Number.isFinite(clock) || clock < 0) throw new TypeError('authorization.clockToleranceSec must be >= 0');
  if (!Number.isFinite(cooldown) || cooldown < 0) throw new TypeError('authorization.jwksCooldownMs must be >= 0');
  const algorithms = options.algorithms ?? ['RS256', 'PS256', 'ES256', 'EdDSA'];
  if (options.verifyToken !== undefined && typeof options.verifyToken !== 'function') {
    throw new TypeError('authorization.verifyToken must be a function (token, resource) => claims');
  }
  if (algorithms.some((alg) => alg === 'none' || alg.startsWith('HS'))) {
    throw new TypeError('authorization.algorithms must not contain "none" or HMAC algorithms (shared secrets)');
  }
  return {
    issuer: absoluteUrl('issuer', options.issuer),
    audience: options.audience === undefined ? undefined : absoluteUrl('audience', options.audience),
    scopesSupported:
      options.scopesSupported === undefined
        ? [...new Set([...requiredScopes, adminScope])]
        : scopes('scopesSupported', options.scopesSupported),
    requiredScopes,
    adminScope,
    algorithms,
    clockToleranceSec: clock,
    jwksCooldownMs: cooldown,
    jwksUri: options.jwksUri === undefined ? undefined : absoluteUrl('jwksUri', options.jwksUri),
    introspection: options.introspection,
    verifyToken: options.verifyToken,
    resourceName: options.resourceName,
    resourceDocumentation: options.resourceDocumentation,
  };
}
