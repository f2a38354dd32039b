import { assertKnownOptions, optionKeys } from '../known-options.js';
import {
  checkArgument,
  checkOptionValues,
  checkValue,
  FUNCTION,
  msRule,
  NON_EMPTY_STRING,
  numberRule,
  OBJECT,
  STRING,
  valueRule,
  type ValueRules,
} from '../option-values.js';

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

/** An RFC 6749 section 3.3 scope token (printable ASCII, no space, `"` or `\`). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.hash;
  } catch {
    return false;
  }
}

/** An issuer, audience or endpoint: absolute, http(s), no fragment (RFC 8707 section 2, RFC 8414 section 2). */
const HTTP_URL = valueRule('an absolute http(s) URL without a fragment', isHttpUrl);
const SCOPE = valueRule('a scope token (RFC 6749 section 3.3)', (v) => typeof v === 'string' && SCOPE_TOKEN.test(v));
const SCOPES = valueRule(
  'an array of scope tokens (RFC 6749 section 3.3)',
  (v) => Array.isArray(v) && v.every((scope) => SCOPE.test(scope)),
);
/** JWS algorithm names; `none` and HMAC (a secret shared with every client) are refused. */
const ALGORITHMS = valueRule(
  'an array of JWS algorithm names without "none" or HMAC ("HS256", ...)',
  (v) =>
    Array.isArray(v) &&
    v.length > 0 &&
    v.every((alg) => typeof alg === 'string' && alg.length > 0 && alg !== 'none' && !alg.startsWith('HS')),
);

const RULES: ValueRules<AuthorizationOptions> = {
  audience: HTTP_URL,
  scopesSupported: SCOPES,
  requiredScopes: SCOPES,
  adminScope: SCOPE,
  algorithms: ALGORITHMS,
  clockToleranceSec: numberRule({ min: 0, unit: 'seconds' }),
  jwksCooldownMs: msRule(true),
  jwksUri: HTTP_URL,
  introspection: OBJECT,
  verifyToken: FUNCTION,
  resourceName: STRING,
  resourceDocumentation: HTTP_URL,
};

const INTROSPECTION_KEYS = optionKeys<IntrospectionOptions>()(['endpoint', 'clientId', 'clientSecret']);

/** Checks `introspection`'s keys and values (`subject` as for the other options). */
function checkIntrospection(subject: string, owner: string, introspection: IntrospectionOptions): void {
  assertKnownOptions(`${owner} authorization.introspection option`, introspection, INTROSPECTION_KEYS);
  checkArgument(subject, 'authorization.introspection.clientId', introspection.clientId, NON_EMPTY_STRING);
  checkArgument(subject, 'authorization.introspection.clientSecret', introspection.clientSecret, NON_EMPTY_STRING);
  checkValue(subject, 'authorization.introspection.endpoint', introspection.endpoint, HTTP_URL);
}

/**
 * Checks the `authorization` option and applies the documented defaults.
 * @param owner - what the option was given to, for the messages (`HttpMcpServer`, `toFetchHandler`).
 * @throws InvalidOptionsError (code `INVALID_OPTIONS`, with `option`, `expected`, `received`) when
 *   `options` is not an object, on an unknown key, a missing or malformed `issuer`, a malformed URL,
 *   scope, algorithm list, number, `introspection` or `verifyToken`.
 */
export function resolveAuthorization(options: AuthorizationOptions, owner = 'HttpMcpServer'): ResolvedAuthorization {
  const subject = `${owner} option`;
  checkArgument(subject, 'authorization', options, OBJECT);
  assertKnownOptions(`${owner} authorization option`, options, KEYS);
  checkArgument(subject, 'authorization.issuer', options.issuer, HTTP_URL);
  checkOptionValues(subject, options, RULES, 'authorization.');
  if (options.introspection) checkIntrospection(subject, owner, options.introspection);
  const requiredScopes = options.requiredScopes ?? [];
  const adminScope = options.adminScope ?? DEFAULT_ADMIN_SCOPE;
  return {
    issuer: options.issuer,
    audience: options.audience,
    scopesSupported: options.scopesSupported ?? [...new Set([...requiredScopes, adminScope])],
    requiredScopes,
    adminScope,
    algorithms: options.algorithms ?? ['RS256', 'PS256', 'ES256', 'EdDSA'],
    clockToleranceSec: options.clockToleranceSec ?? 30,
    jwksCooldownMs: options.jwksCooldownMs ?? 30_000,
    jwksUri: options.jwksUri,
    introspection: options.introspection,
    verifyToken: options.verifyToken,
    resourceName: options.resourceName,
    resourceDocumentation: options.resourceDocumentation,
  };
}
