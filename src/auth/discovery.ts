import { AuthenticationError } from '../errors.js';

/** The fields of an authorization server's metadata this resource server reads (RFC 8414 section 2). */
export interface IssuerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
  readonly [field: string]: unknown;
}

/** How long one metadata or JWKS fetch may take (ms). */
export const FETCH_TIMEOUT_MS = 5_000;

/**
 * The URLs an issuer's metadata may live at, in the order MCP authorization asks clients to try:
 * RFC 8414 path insertion, OpenID Connect Discovery path insertion, then path appending
 * (Keycloak, Entra ID and Auth0 use the last form; for an issuer without a path the first two
 * are the usual `/.well-known/...` documents).
 */
export function discoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  const urls = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  return [...new Set(urls)];
}

function unavailable(message: string, cause?: unknown): AuthenticationError {
  // The client cannot fix this; it is answered 401 like any token that cannot be verified now.
  return new AuthenticationError(`Unauthorized: ${message}`, { cause });
}

/**
 * Finds and caches the issuer's metadata (RFC 8414 / OpenID Connect Discovery 1.0). A document
 * whose `issuer` differs from the configured one is refused (RFC 8414 section 3.3, mix-up
 * defence). A failed discovery is not cached, so the next request tries again.
 */
export class IssuerDiscovery {
  readonly #issuer: string;
  #found?: Promise<IssuerMetadata>;

  constructor(issuer: string) {
    this.#issuer = issuer;
  }

  /**
   * The metadata, fetched once.
   * @throws AuthenticationError (401) when no discovery URL answers a matching document.
   */
  metadata(): Promise<IssuerMetadata> {
    this.#found ??= this.#discover().catch((error: unknown) => {
      this.#found = undefined;
      throw error;
    });
    return this.#found;
  }

  async #discover(): Promise<IssuerMetadata> {
    const problems: string[] = [];
    for (const url of discoveryUrls(this.#issuer)) {
      try {
        const response = await fetch(url, {
          headers: { Accept: 'application/json' },
          signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        });
        if (!response.ok) {
          problems.push(`${url}: HTTP ${response.status}`);
          continue;
        }
        const document = (await response.json()) as IssuerMetadata;
        if (document?.issuer !== this.#issuer) {
          problems.push(`${url}: issuer "${String(document?.issuer)}" is not "${this.#issuer}"`);
          continue;
        }
        return document;
      } catch (error) {
        problems.push(`${url}: ${(error as Error).message}`);
      }
    }
    throw unavailable('the authorization server cannot be reached', new Error(problems.join('; ')));
  }
}
