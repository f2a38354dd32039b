import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import { principalOf, type Principal } from '../../auth/principal.js';
import type { HttpRequestInfo, ReadonlyHeaders } from '../../registry/request-context.js';

/** Peer addresses of the web `Request`s the HTTP transport made, recorded when it made them. */
const remoteAddresses = new WeakMap<object, string>();

/** Called by the HTTP transport for each web `Request` it builds from a Node request. */
export function recordRemoteAddress(request: object, address: string | undefined): void {
  if (address !== undefined) remoteAddresses.set(request, address);
}

/**
 * The caller's principal: the one the OAuth resource server attached to `auth`, else one made of
 * the `authenticate` hook's `clientId` and `scopes` (no claims); undefined without authentication.
 */
export function requestPrincipal(auth: AuthInfo | undefined): Principal | undefined {
  if (!auth) return undefined;
  return principalOf(auth) ?? { clientId: auth.clientId, scopes: auth.scopes, claims: {} };
}

/** A read-only facade over a `Headers` object: the reader cannot change what the server sees. */
class HeadersView implements ReadonlyHeaders {
  readonly #headers: Headers;
  constructor(headers: Headers) {
    this.#headers = headers;
  }
  get(name: string): string | null {
    return this.#headers.get(name);
  }
  has(name: string): boolean {
    return this.#headers.has(name);
  }
  forEach(callback: (value: string, name: string) => void): void {
    this.#headers.forEach((value, name) => callback(value, name));
  }
  entries(): IterableIterator<[string, string]> {
    return this.#headers.entries();
  }
  keys(): IterableIterator<string> {
    return this.#headers.keys();
  }
  values(): IterableIterator<string> {
    return this.#headers.values();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#headers.entries();
  }
}

/** The HTTP request behind `ctx`, read-only; undefined on stdio and the in-memory transport. */
export function httpRequestInfo(ctx: ServerContext): HttpRequestInfo | undefined {
  const request = ctx.http?.req;
  if (!request) return undefined;
  return Object.freeze({
    headers: new HeadersView(request.headers),
    method: request.method,
    url: request.url,
    remoteAddress: remoteAddresses.get(request),
  });
}
