import type * as Jose from 'jose';
import type { createRemoteJWKSet, JWTPayload } from 'jose';
import type { LRUCache } from 'lru-cache';
import { AuthenticationError } from '../errors.js';
import { FETCH_TIMEOUT_MS, IssuerDiscovery } from './discovery.js';
import type { ResolvedAuthorization } from './options.js';

/** How long a verified JWT is trusted without checking its signature again (ms). */
export const VERIFIED_JWT_TTL_MS = 60_000;
/** How many verified JWTs are remembered (least recently used dropped first). */
const VERIFIED_JWT_MAX = 10_000;

/** Why a token was refused, as RFC 6750 section 3.1 names it for the challenge. */
export class TokenRefusal extends AuthenticationError {
  constructor(message: string, cause?: unknown) {
    super(`Unauthorized: ${message}`, { cause });
  }
}

/** jose, loaded with the first token: its import costs ~30 ms of CPU that a stdio server or one without authorization never needs (bench W0). */
let jose: Promise<typeof Jose> | undefined;
const loadJose = (): Promise<typeof Jose> => (jose ??= import('jose'));

function isJws({ decodeProtectedHeader }: typeof Jose, token: string): boolean {
  try {
    decodeProtectedHeader(token);
    return token.split('.').length === 3;
  } catch {
    return false;
  }
}

/** A client-facing reason for a jose verification failure (no key material or internals). */
function reasonOf({ errors }: typeof Jose, error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'the access token is not meant for this resource (aud)';
    if (error.claim === 'iss') return 'the access token was not issued by the trusted authorization server (iss)';
    if (error.claim === 'nbf') return 'the access token is not valid yet (nbf)';
    return `the access token's "${error.claim}" claim is invalid`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the access token is signed with an algorithm not allowed here';
  if (error instanceof errors.JWKSNoMatchingKey) return "the access token's signing key is not the issuer's";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the access token's signature does not verify";
  return 'the access token is invalid';
}

/** A verified JWT, remembered for its next requests. */
export interface RememberedJwt {
  readonly token: string;
  readonly audience: string;
  readonly payload: JWTPayload;
  /** When it stops being trusted without a new signature check (ms since the epoch). */
  readonly until: number;
}

/**
 * The remembered-JWT key of `token`: its signature part, a third of the ~1 KB token to hash per
 * request (a slice, no copy). A hit is compared with the whole token, so a token reusing another's
 * signature is verified in full.
 */
function rememberedKey(token: string): string {
  return token.slice(token.lastIndexOf('.') + 1);
}

/**
 * Verifies access tokens for one resource: JWTs (RFC 9068 profile; `jose`) against the
 * issuer's JWKS (found by discovery, cached, refetched on an unknown `kid` after the cooldown,
 * so rotation needs no restart), checking `iss`, `aud`, `exp`/`nbf` with the clock tolerance
 * and the allowed algorithms; opaque tokens by RFC 7662 introspection when configured; or
 * every token by the app's `verifyToken` when given.
 */
export class TokenVerifier {
  readonly #options: ResolvedAuthorization;
  /**
   * JWTs verified lately (audience + token -> claims), so a client's every request does not pay the
   * signature check again: at most {@link VERIFIED_JWT_TTL_MS} and never past the token's `exp`; a
   * key the issuer drops stops being trusted for cached tokens within that time too.
   */
  #verified?: LRUCache<string, RememberedJwt>;
  readonly #discovery: IssuerDiscovery;
  #jwks?: Promise<ReturnType<typeof createRemoteJWKSet>>;

  constructor(options: ResolvedAuthorization) {
    this.#options = options;
    this.#discovery = new IssuerDiscovery(options.issuer);
  }

  /**
   * The verified claims of `token`, for the resource `audience`.
   * @throws TokenRefusal (401 `invalid_token`) for a token that does not verify or is not active.
   * @throws AuthenticationError (401) when the authorization server cannot be reached.
   */
  async verify(token: string, audience: string): Promise<Record<string, unknown>> {
    if (this.#options.verifyToken) return this.#verifyCustom(token, audience);
    const cached = this.remembered(token, audience);
    if (cached !== undefined) return cached.payload;
    const lib = await loadJose();
    // lru-cache loads with jose, on the first token: a server without authorization never loads either.
    this.#verified ??= new (await import('lru-cache')).LRUCache({ max: VERIFIED_JWT_MAX, ttlAutopurge: false });
    if (isJws(lib, token)) return this.#verifyJwt(lib, token, audience);
    if (this.#options.introspection) return this.#introspect(token, audience);
    throw new TokenRefusal('the access token is not a JWT and introspection is not configured');
  }

  /**
   * The JWT `token` verified for `audience` lately and still trusted, without waiting; undefined
   * when it was not (then {@link verify} checks it) or when the app verifies tokens itself.
   */
  remembered(token: string, audience: string): RememberedJwt | undefined {
    if (this.#options.verifyToken) return undefined;
    const cached = this.#verified?.get(rememberedKey(token));
    // The key is only the signature: the whole token and the audience must match too. `until` is
    // wall-clock time, like `exp` (the cache's own TTL runs on the monotonic clock).
    return cached !== undefined && cached.token === token && cached.audience === audience && Date.now() < cached.until
      ? cached
      : undefined;
  }

  async #verifyJwt(lib: typeof Jose, token: string, audience: string): Promise<JWTPayload> {
    const { errors } = lib;
    const jwks = await this.#keySet(lib);
    try {
      const { payload } = await lib.jwtVerify(token, jwks, {
        issuer: this.#options.issuer,
        audience,
        algorithms: this.#options.algorithms,
        clockTolerance: this.#options.clockToleranceSec,
        requiredClaims: ['exp'],
      });
      const untilExpiry = ((payload.exp as number) + this.#options.clockToleranceSec) * 1000 - Date.now();
      const ttl = Math.floor(Math.min(VERIFIED_JWT_TTL_MS, untilExpiry));
      if (ttl > 0)
        this.#verified?.set(rememberedKey(token), { token, audience, payload, until: Date.now() + ttl }, { ttl });
      return payload;
    } catch (error) {
      if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
        this.#jwks = undefined;
        throw new AuthenticationError("Unauthorized: the authorization server's keys cannot be read", { cause: error });
      }
      throw new TokenRefusal(reasonOf(lib, error), error);
    }
  }

  #keySet(lib: typeof Jose): Promise<ReturnType<typeof createRemoteJWKSet>> {
    this.#jwks ??= (async () => {
      const uri = this.#options.jwksUri ?? (await this.#discovery.metadata()).jwks_uri;
      if (!uri) throw new AuthenticationError("Unauthorized: the authorization server's metadata has no jwks_uri");
      return lib.createRemoteJWKSet(new URL(uri), {
        cooldownDuration: this.#options.jwksCooldownMs,
        timeoutDuration: FETCH_TIMEOUT_MS,
      });
    })().catch((error: unknown) => {
      this.#jwks = undefined;
      throw error;
    });
    return this.#jwks;
  }

  /** `exp` / `nbf` of claims not verified by jose, with the clock tolerance. */
  #checkLifetime(claims: Record<string, unknown>): void {
    const now = Date.now() / 1000;
    const skew = this.#options.clockToleranceSec;
    if (typeof claims.exp === 'number' && claims.exp + skew < now)
      throw new TokenRefusal('the access token has expired');
    if (typeof claims.nbf === 'number' && claims.nbf - skew > now) {
      throw new TokenRefusal('the access token is not valid yet (nbf)');
    }
  }

  async #verifyCustom(token: string, audience: string): Promise<Record<string, unknown>> {
    let claims: unknown;
    try {
      claims = await this.#options.verifyToken!(token, audience);
    } catch (error) {
      if (error instanceof TokenRefusal) throw error;
      if (error instanceof AuthenticationError)
        throw new TokenRefusal(error.message.replace(/^Unauthorized: /, ''), error);
      throw new TokenRefusal('the access token is invalid', error);
    }
    if (typeof claims !== 'object' || claims === null) throw new TokenRefusal('the access token is invalid');
    this.#checkLifetime(claims as Record<string, unknown>);
    return claims as Record<string, unknown>;
  }

  async #introspect(token: string, audience: string): Promise<Record<string, unknown>> {
    const settings = this.#options.introspection!;
    const endpoint = settings.endpoint ?? (await this.#discovery.metadata()).introspection_endpoint;
    if (!endpoint) throw new AuthenticationError('Unauthorized: the authorization server offers no introspection');
    const basic = Buffer.from(
      `${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`,
    ).toString('base64');
    let answer: Record<string, unknown>;
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`introspection answered HTTP ${response.status}`);
      answer = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      throw new AuthenticationError('Unauthorized: the authorization server cannot be reached', { cause: error });
    }
    if (answer.active !== true) throw new TokenRefusal('the access token is not active');
    this.#checkLifetime(answer);
    if (answer.iss !== undefined && answer.iss !== this.#options.issuer) {
      throw new TokenRefusal('the access token was not issued by the trusted authorization server (iss)');
    }
    const aud = answer.aud;
    const audiences = Array.isArray(aud) ? aud : aud === undefined ? [] : [aud];
    if (!audiences.includes(audience)) throw new TokenRefusal('the access token is not meant for this resource (aud)');
    return answer;
  }
}
