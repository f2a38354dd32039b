import type { AuthInfo } from '@modelcontextprotocol/server';
import { assertKnownOptions, optionKeys } from '../known-options.js';
import {
  checkArgument,
  checkOptionValues,
  numberRule,
  OBJECT,
  STRING,
  STRING_ARRAY,
  valueRule,
  type ValueRules,
} from '../option-values.js';

/**
 * Who is calling, as a verified access token says: the `sub`, the OAuth client, the granted
 * scopes and every claim (frozen when the resource server made it: one token's requests share it).
 * Tools and prompts read it with {@link principalOf} from
 * `context.authInfo` (the resource server stores it in `authInfo.extra.principal`).
 */
export interface Principal {
  /** `sub` of the token (the end user, or the client itself for client_credentials); may be absent for introspection. */
  readonly subject?: string;
  /** `client_id` (RFC 9068), else `azp`, else `sub`. */
  readonly clientId: string;
  /** Granted scopes (`scope` string, or `scp` as Entra ID and Okta send it). */
  readonly scopes: readonly string[];
  /** Every claim of the token (or of the introspection answer). */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** The principal the resource server attached to `auth`, or undefined for other authentication. */
export function principalOf(auth: AuthInfo | undefined): Principal | undefined {
  const principal = auth?.extra?.principal;
  return typeof principal === 'object' && principal !== null ? (principal as Principal) : undefined;
}

/** Granted scopes out of a claims set: `scope` (RFC 8693 / RFC 9068, space-separated) or `scp` (string or array). */
export function scopesOfClaims(claims: Record<string, unknown>): string[] {
  const raw = claims.scope ?? claims.scp;
  if (typeof raw === 'string') return raw.split(' ').filter(Boolean);
  if (Array.isArray(raw)) return raw.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

/** Builds the SDK's `AuthInfo` (what tools see as `context.authInfo`) for a verified token. */
export function authInfoOf(token: string, claims: Record<string, unknown>, resource: string | undefined): AuthInfo {
  const subject = typeof claims.sub === 'string' ? claims.sub : undefined;
  const clientId = [claims.client_id, claims.azp, subject].find((value): value is string => typeof value === 'string');
  const principal: Principal = { subject, clientId: clientId ?? '', scopes: scopesOfClaims(claims), claims };
  return {
    token,
    clientId: principal.clientId,
    scopes: [...principal.scopes],
    ...(typeof claims.exp === 'number' && { expiresAt: claims.exp }),
    ...(resource && { resource: new URL(resource) }),
    extra: { principal },
  };
}

/**
 * Who to act as without a token (`connectInMemory(server, { auth })` of `mcp-toolkit/testing`):
 * the fields of a {@link Principal}, each optional.
 */
export interface PrincipalInit {
  /** `sub`; default none (a client acting for itself). */
  subject?: string;
  /** The OAuth client; default `'test-client'`. */
  clientId?: string;
  /** Granted scopes; default none. */
  scopes?: readonly string[];
  /** More claims (`sub`, `client_id` and `scope` are set from the fields above). */
  claims?: Record<string, unknown>;
  /** `exp` of the stand-in token (seconds since the epoch); default none. */
  expiresAt?: number;
  /** The resource (audience) the principal was authorized for; default none. */
  resource?: string;
}

function isAbsoluteUrl(value: string): boolean {
  try {
    return Boolean(new URL(value));
  } catch {
    return false;
  }
}

const SUBJECT = 'principal (connectInMemory auth) option';
const PRINCIPAL_KEYS = optionKeys<PrincipalInit>()([
  'subject',
  'clientId',
  'scopes',
  'claims',
  'expiresAt',
  'resource',
]);
const PRINCIPAL_RULES: ValueRules<PrincipalInit> = {
  subject: STRING,
  clientId: STRING,
  scopes: STRING_ARRAY,
  claims: OBJECT,
  expiresAt: numberRule({ min: 0, unit: 'seconds since the epoch' }),
  resource: valueRule('an absolute URL', (v) => typeof v === 'string' && isAbsoluteUrl(v)),
};

/**
 * The `AuthInfo` a verified access token for `init` would give: the same shape the resource
 * server builds (`clientId`, `scopes`, `extra.principal`), with a stand-in `token`.
 * @throws InvalidOptionsError (code `INVALID_OPTIONS`) when `init` is not an object, has an unknown
 *   key or a field of the wrong type (`scopes` not an array of strings, `resource` not a URL, ...).
 */
export function authInfoForPrincipal(init: PrincipalInit): AuthInfo {
  checkArgument(SUBJECT, 'auth', init, OBJECT);
  assertKnownOptions(SUBJECT, init, PRINCIPAL_KEYS);
  checkOptionValues(SUBJECT, init, PRINCIPAL_RULES, 'auth.');
  const scopes = init.scopes ?? [];
  const claims: Record<string, unknown> = {
    ...init.claims,
    ...(init.subject !== undefined && { sub: init.subject }),
    client_id: init.clientId ?? 'test-client',
    scope: scopes.join(' '),
    ...(init.expiresAt !== undefined && { exp: init.expiresAt }),
  };
  return authInfoOf('in-memory-test-token', claims, init.resource);
}

/** Scopes of `required` that `auth` lacks (all of them when unauthenticated). */
export function missingScopes(required: readonly string[] | undefined, auth: AuthInfo | undefined): string[] {
  if (!required || required.length === 0) return [];
  const granted = new Set(auth?.scopes ?? []);
  return required.filter((scope) => !granted.has(scope));
}
