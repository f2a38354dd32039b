import type { AuthInfo } from '@modelcontextprotocol/server';
import type { AuthorizationOptions } from '../../../auth/options.js';
import { assertKnownOptions, optionKeys } from '../../../known-options.js';
import { checkOptionsObject, checkOptionValues, invalidOptionValue } from '../../../option-values.js';
import { SHARED_ENDPOINT_RULES } from '../http/option-rules.js';
import { originHostname, resolveSharedEndpointOptions, type SharedEndpointOptions } from '../http/options.js';

/** Authenticates one web request: the auth info, or `undefined`/`null`/a throw for 401 (see `docs/runtimes.md`). */
export type FetchAuthenticateHook = (
  request: Request,
) => AuthInfo | undefined | null | Promise<AuthInfo | undefined | null>;

/**
 * Options of `toFetchHandler` (all optional). They mean what the `HttpMcpServer` options of the same
 * names mean; what a fetch handler has no use for (host, port, TLS, sessions, CORS, health routes) is absent.
 */
export interface FetchHandlerOptions {
  /** Path of the MCP endpoint. Default `/mcp`; other paths get 404 (except the OAuth metadata with `authorization`). */
  path?: string;
  /**
   * DNS-rebinding protection: `Host` / `Origin` hostnames checked against `allowedHosts` /
   * `allowedOrigins` (403 otherwise). Default: on when either list is given. A fetch handler does not
   * know the address it is served on, so there is no loopback default as `HttpMcpServer` has: pass
   * `allowedHosts: ['127.0.0.1', 'localhost']` for a server on loopback.
   */
  dnsRebindingProtection?: boolean;
  /** Hostnames accepted in `Host` (ports ignored). */
  allowedHosts?: string[];
  /** Hostnames (or origins) accepted in `Origin`; requests without `Origin` pass. */
  allowedOrigins?: string[];
  /** Guards every MCP request (both eras): the auth info, or a refusal (401 with `WWW-Authenticate`). */
  authenticate?: FetchAuthenticateHook;
  /** OAuth 2.1 resource server (RFC 9728 metadata, bearer tokens via `jose`); excludes `authenticate`. */
  authorization?: AuthorizationOptions;
  /** `WWW-Authenticate` sent with a 401 that names no challenge. Default `Bearer realm="<server name>"`. */
  authChallenge?: string;
  /** URL of the RFC 9728 metadata, named in the default challenge. */
  resourceMetadataUrl?: string;
  /** Largest accepted request body in bytes (declared or received). Default 4 MiB (the SDK's). */
  maxRequestBodyBytes?: number;
  /** SSE keepalive comment interval (ms) on 2026-07-28 streams; 0 turns it off. Default 15,000. */
  keepAliveMs?: number;
  /** Cap on concurrent `subscriptions/listen` streams. Default 1024. */
  maxListenStreams?: number;
}

/** Every key of {@link FetchHandlerOptions}. */
const FETCH_OPTION_KEYS = optionKeys<FetchHandlerOptions>()([
  'path',
  'dnsRebindingProtection',
  'allowedHosts',
  'allowedOrigins',
  'authenticate',
  'authorization',
  'authChallenge',
  'resourceMetadataUrl',
  'maxRequestBodyBytes',
  'keepAliveMs',
  'maxListenStreams',
]);

/** The options after defaults were applied (internal). */
export interface ResolvedFetchOptions extends SharedEndpointOptions {
  allowedHosts?: string[];
  allowedOrigins?: string[];
}

/**
 * Applies the documented defaults.
 * @throws InvalidOptionsError when `options` is not an object, for an unknown key, `authorization` together
 *   with `authenticate`, or a value of the wrong type or range (a negative or non-numeric size or interval,
 *   a path without a leading `/`, a host list that is not an array of strings).
 */
export function resolveFetchOptions(options: FetchHandlerOptions, serverName: string): ResolvedFetchOptions {
  checkOptionsObject('toFetchHandler', options);
  assertKnownOptions('toFetchHandler option', options, FETCH_OPTION_KEYS);
  checkOptionValues('toFetchHandler option', options, SHARED_ENDPOINT_RULES);
  const shared = resolveSharedEndpointOptions('toFetchHandler', options, serverName);
  const protect =
    options.dnsRebindingProtection ?? (options.allowedHosts !== undefined || options.allowedOrigins !== undefined);
  if (protect && !options.allowedHosts && !options.allowedOrigins) {
    throw invalidOptionValue(
      'toFetchHandler option',
      'dnsRebindingProtection',
      'false or left out when neither allowedHosts nor allowedOrigins is given',
      true,
      'Pass allowedHosts and/or allowedOrigins (the hostnames this handler is served on).',
    );
  }
  return {
    ...shared,
    allowedHosts: protect ? options.allowedHosts : undefined,
    allowedOrigins: protect ? options.allowedOrigins?.map(originHostname) : undefined,
  };
}
