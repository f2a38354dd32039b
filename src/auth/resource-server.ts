import type { AuthInfo } from '@modelcontextprotocol/server';
import { AuthenticationError } from '../errors.js';
import { bearerChallenge, type BearerChallenge } from './challenges.js';
import { resolveAuthorization, type AuthorizationOptions, type ResolvedAuthorization } from './options.js';
import { authInfoOf, missingScopes } from './principal.js';
import { metadataUrlOf, protectedResourceMetadata } from './protected-resource.js';
import { TokenRefusal, TokenVerifier } from './token-verifier.js';

/** What the resource server reads of one HTTP request (it knows no servers). */
export interface BearerRequest {
  /** The `Authorization` header. */
  readonly authorization?: string;
  /** The request target (path and query), to refuse tokens sent in the query string. */
  readonly url?: string;
  /**
   * The connection the request came on (a keep-alive socket), if any: a connection that sends the
   * header of its previous accepted request again is answered from that request's check.
   */
  readonly connection?: object;
}

/** The last request a connection got accepted: its header, resource and scopes, and the answer. */
interface AcceptedOnConnection {
  readonly header: string;
  readonly resource: string;
  readonly requiredScopes: readonly string[];
  readonly auth: AuthInfo;
  /** The remembered token's trust end (ms since the epoch). */
  readonly until: number;
}

/** The `AuthInfo` of one remembered token for one resource, shared by its requests (frozen). */
interface SharedAuthInfo {
  readonly resource: string;
  readonly auth: AuthInfo;
}

/** The bearer scheme with exactly one token68 (RFC 6750 section 2.1). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * An OAuth 2.1 resource server for one MCP endpoint (MCP authorization; RFC 9728, RFC 8707,
 * RFC 6750): it authenticates bearer tokens into the SDK's `AuthInfo` (with the
 * {@link Principal} in `extra.principal`), builds the challenges of its 401/403 answers and the
 * protected-resource metadata document. Used by `HttpMcpServer({ authorization })`.
 */
export class ResourceServer {
  readonly options: ResolvedAuthorization;
  readonly #verifier: TokenVerifier;
  readonly #serverName: string;
  /** Per connection: its last accepted request (dropped with the connection). */
  readonly #lastAccepted = new WeakMap<object, AcceptedOnConnection>();
  /** Per remembered token's claims: its `AuthInfo`, built once (dropped with the claims). */
  readonly #authInfos = new WeakMap<object, SharedAuthInfo>();

  /**
   * @throws InvalidOptionsError on bad {@link AuthorizationOptions} (see `resolveAuthorization`).
   */
  constructor(options: AuthorizationOptions, serverName: string) {
    this.options = resolveAuthorization(options);
    this.#verifier = new TokenVerifier(this.options);
    this.#serverName = serverName;
  }

  /** This resource's identifier: the configured `audience`, else `endpointUrl`. */
  resource(endpointUrl: string): string {
    return this.options.audience ?? endpointUrl;
  }

  /** The RFC 9728 metadata document of `resource`. */
  metadata(resource: string): Record<string, unknown> {
    return protectedResourceMetadata(this.options, resource, this.#serverName);
  }

  /**
   * The answer of {@link authenticate} for a request whose token was verified lately and that has
   * every scope of `requiredScopes`, without waiting: its `AuthInfo` (shared by the token's
   * requests, so frozen). Undefined for anything else (no or a new token, a query string, a
   * missing scope, an app's `verifyToken`): {@link authenticate} then checks in full, and explains a refusal.
   */
  accepted(
    request: BearerRequest,
    resource: string,
    requiredScopes: readonly string[] = this.options.requiredScopes,
  ): AuthInfo | undefined {
    const header = request.authorization;
    if (!header || request.url?.includes('?')) return undefined;
    const last = request.connection && this.#lastAccepted.get(request.connection);
    // The same header string as the connection's last accepted request: no parsing, no cache lookup.
    if (
      last &&
      last.header === header &&
      last.resource === resource &&
      last.requiredScopes === requiredScopes &&
      Date.now() < last.until
    ) {
      return last.auth;
    }
    const token = BEARER.exec(header)?.[1];
    const remembered = token && this.#verifier.remembered(token, resource);
    if (!remembered) return undefined;
    const auth = this.#sharedAuthInfo(token, remembered.payload, resource);
    if (missingScopes(requiredScopes, auth).length > 0) return undefined;
    if (request.connection) {
      this.#lastAccepted.set(request.connection, { header, resource, requiredScopes, auth, until: remembered.until });
    }
    return auth;
  }

  #sharedAuthInfo(token: string, claims: Record<string, unknown>, resource: string): AuthInfo {
    const shared = this.#authInfos.get(claims);
    if (shared?.resource === resource) return shared.auth;
    const auth = deepFreezeAuthInfo(authInfoOf(token, claims, resource));
    this.#authInfos.set(claims, { resource, auth });
    return auth;
  }

  /**
   * Verifies the request's bearer token for `resource` and checks `requiredScopes` (default the
   * scopes every MCP request needs; the admin surface passes its admin scope). A token verified
   * lately is answered at once ({@link accepted}), anything else after the full check.
   * @throws AuthenticationError: 401 without a token (challenge with `resource_metadata` and
   *   `scope`), 400-like `invalid_request` (401) for a token in the query string or a malformed
   *   header, 401 `invalid_token` for a token that does not verify, 403 `insufficient_scope` when
   *   `requiredScopes` are missing.
   */
  authenticate(
    request: BearerRequest,
    resource: string,
    requiredScopes: readonly string[] = this.options.requiredScopes,
  ): AuthInfo | Promise<AuthInfo> {
    return this.accepted(request, resource, requiredScopes) ?? this.#verifyAndCheck(request, resource, requiredScopes);
  }

  async #verifyAndCheck(
    request: BearerRequest,
    resource: string,
    requiredScopes: readonly string[],
  ): Promise<AuthInfo> {
    // Built only for a refusal: an accepted request pays no URL parsing for its challenge.
    const challenge = (refusal?: Pick<BearerChallenge, 'error' | 'description'>) =>
      bearerChallenge({
        resourceMetadata: metadataUrlOf(resource),
        scopes: requiredScopes.length > 0 ? requiredScopes : this.options.scopesSupported,
        ...refusal,
      });
    // Without a '?' there is no query string to look into.
    if (request.url?.includes('?') && new URL(request.url, 'http://x').searchParams.has('access_token')) {
      throw new AuthenticationError(
        'Unauthorized: access tokens in the query string are refused; send an Authorization header',
        { challenge: challenge({ error: 'invalid_request' }) },
      );
    }
    const header = request.authorization;
    if (!header) {
      throw new AuthenticationError('Unauthorized: this server needs an OAuth access token', {
        challenge: challenge(),
      });
    }
    const token = BEARER.exec(header)?.[1];
    if (!token) {
      throw new AuthenticationError('Unauthorized: send "Authorization: Bearer <access token>"', {
        challenge: challenge({ error: 'invalid_request' }),
      });
    }
    let claims: Record<string, unknown>;
    try {
      claims = await this.#verifier.verify(token, resource);
    } catch (error) {
      if (!(error instanceof TokenRefusal)) throw error;
      throw new AuthenticationError(error.message, {
        cause: error,
        challenge: challenge({ error: 'invalid_token', description: error.message }),
      });
    }
    // A remembered token's claims come back as the same object: its AuthInfo is built once.
    const auth = this.#verifier.remembered(token, resource)
      ? this.#sharedAuthInfo(token, claims, resource)
      : authInfoOf(token, claims, resource);
    const missing = missingScopes(requiredScopes, auth);
    if (missing.length > 0) throw this.insufficientScope(resource, missing, auth);
    return auth;
  }

  /**
   * The 403 for a call that needs scopes the token lacks (RFC 6750 section 3.1): the challenge's
   * `scope` names the token's scopes plus the missing ones, so a client can step up (MCP
   * authorization, scope challenge handling).
   */
  insufficientScope(resource: string, missing: readonly string[], auth?: AuthInfo): AuthenticationError {
    const scopes = [...new Set([...(auth?.scopes ?? []), ...missing])];
    const message = `Forbidden: this needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(' ')}`;
    return new AuthenticationError(message, {
      status: 403,
      challenge: bearerChallenge({
        resourceMetadata: metadataUrlOf(resource),
        scopes,
        error: 'insufficient_scope',
        description: message,
      }),
    });
  }
}

/** Freezes what a shared `AuthInfo` holds, so one request's tool cannot change another's. */
function deepFreezeAuthInfo(auth: AuthInfo): AuthInfo {
  const principal = auth.extra?.principal as { scopes?: readonly string[]; claims?: object } | undefined;
  if (principal) {
    Object.freeze(principal.scopes);
    Object.freeze(principal.claims);
    Object.freeze(principal);
  }
  Object.freeze(auth.extra);
  Object.freeze(auth.scopes);
  return Object.freeze(auth);
}
