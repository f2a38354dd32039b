import type { IncomingMessage } from 'node:http';
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type AuthInfo,
  type EventStore,
} from '@modelcontextprotocol/server';
import type { CorsOptions } from 'cors';
import type { Express } from 'express';
import { resolveAuthorization, type AuthorizationOptions } from '../../../auth/options.js';
import { InvalidOptionsError } from '../../../errors.js';
import { assertKnownOptions, optionKeys } from '../../../known-options.js';
import { checkOptionValues, invalidOptionValue } from '../../../option-values.js';
import { HTTP_RULES, HTTPS_RULES, ROUTE } from './option-rules.js';
import { checkRouteConflicts } from './route-conflicts.js';
import { resolvePing, type PingSettings } from '../ping.js';
import type { BaseMcpServerOptions } from '../../server/server-options.js';
import { BASE_OPTION_NAMES } from '../../server/option-keys.js';
import type { HttpSessionEvent, SessionLimitPolicy } from './session-map.js';

/**
 * Decides who is calling. Runs before every MCP request on both protocol eras
 * (`initialize`, every later POST, GET streams, DELETE; not CORS preflights).
 * Return the caller's auth info (tools see it as `context.authInfo`); return
 * `undefined`/`null` or throw to refuse with 401 (throw `AuthenticationError` to
 * choose the message, the status 401/403 and the `WWW-Authenticate` challenge).
 */
export type AuthenticateHook = (
  request: IncomingMessage,
) => AuthInfo | undefined | null | Promise<AuthInfo | undefined | null>;

/**
 * TLS for `HttpMcpServer` (served by `node:https`): PEM text or bytes, as Node's
 * `tls.createSecureContext` takes them. With `requestCert`, clients must present a certificate
 * signed by `ca` (mutual TLS) unless `rejectUnauthorized` is `false`.
 */
export interface HttpsOptions {
  /** Private key (PEM). Required. */
  key: string | Buffer;
  /** Certificate chain (PEM). Required. */
  cert: string | Buffer;
  /** CA certificates to trust for client certificates (PEM); default Node's bundled roots. */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Passphrase of an encrypted `key`. */
  passphrase?: string;
  /** Ask clients for a certificate (mutual TLS). Default `false`. */
  requestCert?: boolean;
  /** With `requestCert`: refuse clients whose certificate does not verify against `ca`. Default `true`. */
  rejectUnauthorized?: boolean;
}

/** Options of the Streamable HTTP transport (`serveHttp`, and `HttpMcpServer` beside the base server options); every field is optional. */
export interface HttpServeOptions {
  /** Interface to bind. Default `127.0.0.1` (loopback only); use `0.0.0.0` to accept remote clients. */
  host?: string;
  /** TCP port. Default `3000`; `0` picks a free port (read it from `server.address` after `start()`). */
  port?: number;
  /** Path of the MCP endpoint, serving both protocol eras: literal and percent-encoded as in a URL (no route patterns such as `/:x`). Default `/mcp`. */
  path?: string;
  /** Serve HTTPS instead of plain HTTP (`https://` in `server.address.url`); see {@link HttpsOptions}. Default: plain HTTP. */
  https?: HttpsOptions;
  /**
   * Serve legacy (2025-era) clients without sessions: each POST is answered by a
   * fresh view, GET/DELETE answer 405, and legacy clients get no change
   * notifications (no stream outlives a request). For serverless hosts. Default `false`.
   */
  stateless?: boolean;
  /** A legacy session with no request or open stream for this long is closed (ms). Default 30 min; `0` never. */
  sessionIdleTimeoutMs?: number;
  /** Most live legacy sessions at once. Default `1000`. */
  maxSessions?: number;
  /**
   * What `initialize` does when `maxSessions` are live: `'evict-lru'` (default) closes the
   * least recently used idle session (reason `evicted`; its client gets 404 next and
   * re-initializes) and answers 503 only when every session is busy; `'reject'` answers 503
   * with `Retry-After`. The default cannot lock new clients out: many clients never send
   * DELETE, so under `'reject'` abandoned sessions fill the cap until they idle out.
   */
  sessionLimitPolicy?: SessionLimitPolicy;
  /**
   * Called when a legacy session is created or closed (with the reason); the same events
   * reach `server.events` as `sessionCreated` / `sessionClosed`. Errors it throws are logged.
   */
  onSessionEvent?: (event: HttpSessionEvent) => void;
  /** Most open 2026-07-28 `subscriptions/listen` streams; more are refused in-band. Default `1024`. */
  maxListenStreams?: number;
  /**
   * DNS-rebinding protection: reject (403) a request whose `Host` or `Origin`
   * hostname is not allowed. Default `true` when bound to a loopback address or when
   * `allowedHosts` / `allowedOrigins` are given; behind a proxy on `0.0.0.0`, list your public host names.
   */
  dnsRebindingProtection?: boolean;
  /** Allowed `Host` hostnames, port-agnostic, IPv6 in brackets. Default `localhost`, `127.0.0.1`, `[::1]`. */
  allowedHosts?: string[];
  /**
   * Allowed `Origin`s: hostnames (`app.example.com`) or full origins (`https://app.example.com`,
   * compared by hostname, ports ignored), or `<scheme>://*`. Default the loopback names; giving
   * a list replaces them (add `localhost` to keep local browser clients). Absent `Origin` passes.
   */
  allowedOrigins?: string[];
  /**
   * CORS for browser clients, off by default. `true` allows any origin; an object is
   * passed to the `cors` package. Either way `Mcp-Session-Id` is exposed and
   * `Mcp-Protocol-Version`, `Last-Event-ID`, `Authorization` are allowed.
   */
  cors?: boolean | CorsOptions;
  /** Guards every MCP request on both eras; see {@link AuthenticateHook}. Default: no authentication. */
  authenticate?: AuthenticateHook;
  /**
   * Make the server an OAuth 2.1 resource server (MCP authorization): RFC 9728 metadata at
   * `/.well-known/oauth-protected-resource` (and its path-suffixed form), bearer tokens from
   * `issuer` verified on every request of both eras, 401/403 challenges, `requiredScopes` on
   * tools enforced; see {@link AuthorizationOptions} and docs/authorization.md. Not with `authenticate`.
   */
  authorization?: AuthorizationOptions;
  /**
   * `WWW-Authenticate` value sent with 401s. Default `Bearer resource_metadata="<resourceMetadataUrl>"`
   * when that is set, else `Bearer realm="<server name>"`.
   */
  authChallenge?: string;
  /**
   * URL of this server's OAuth protected-resource metadata (RFC 9728; MCP authorization),
   * advertised in 401/403 challenges so clients can find the authorization server. Default: none.
   */
  resourceMetadataUrl?: string;
  /** Largest accepted request body (bytes); larger bodies get 413 and a JSON-RPC error. Default 4 MiB. */
  maxRequestBodyBytes?: number;
  /** Liveness route answering `{ status: 'ok' }`: a literal path no other route uses. Default `/health`; `false` disables it. */
  healthPath?: string | false;
  /** Readiness route answering mode and live session count (503 unless running): a literal path no other route uses. Default `/ready`; `false` disables it. */
  readyPath?: string | false;
  /** Interval of SSE keepalive comments on every open stream, so idle proxies keep long calls open (ms). Default 15000; `0` disables. */
  keepAliveMs?: number;
  /**
   * Liveness pings (ms; default `0`, off): every legacy session whose GET stream is open is sent
   * a JSON-RPC `ping` this often, and a session that does not answer within `pingTimeoutMs` is
   * closed (reason `unresponsive`; its running calls are aborted). Unlike `keepAliveMs`, which
   * keeps proxies from cutting an idle stream, this finds clients that are gone. Sessions
   * without an open stream end by `sessionIdleTimeoutMs`; 2026-07-28 clients are stateless
   * and have no ping.
   */
  pingIntervalMs?: number;
  /** How long a liveness ping waits for its answer (ms). Default 10,000. */
  pingTimeoutMs?: number;
  /** Event store for legacy stream resumability (`Last-Event-ID`). Default: none. */
  eventStore?: EventStore;
  /** Express app to mount on (routes you added before `start()` run before the MCP endpoint). Default: a new app. */
  app?: Express;
}

/** Options of `HttpMcpServer`: the base server options and those of `serveHttp` ({@link HttpServeOptions}). */
export interface HttpMcpServerOptions extends BaseMcpServerOptions, HttpServeOptions {}

/** The keys of {@link HttpServeOptions}. */
const HTTP_SERVE_OPTION_NAMES = [
  'host',
  'port',
  'path',
  'https',
  'stateless',
  'sessionIdleTimeoutMs',
  'maxSessions',
  'sessionLimitPolicy',
  'onSessionEvent',
  'maxListenStreams',
  'dnsRebindingProtection',
  'allowedHosts',
  'allowedOrigins',
  'cors',
  'authenticate',
  'authorization',
  'authChallenge',
  'resourceMetadataUrl',
  'maxRequestBodyBytes',
  'healthPath',
  'readyPath',
  'keepAliveMs',
  'pingIntervalMs',
  'pingTimeoutMs',
  'eventStore',
  'app',
] as const;

/** Every key of {@link HttpServeOptions} (`serveHttp`). */
export const HTTP_SERVE_OPTION_KEYS = optionKeys<HttpServeOptions>()(HTTP_SERVE_OPTION_NAMES);

/** Every key of {@link HttpMcpServerOptions}. */
export const HTTP_OPTION_KEYS = optionKeys<HttpMcpServerOptions>()([...BASE_OPTION_NAMES, ...HTTP_SERVE_OPTION_NAMES]);

/** Every key of {@link HttpsOptions}. */
const HTTPS_OPTION_KEYS = optionKeys<HttpsOptions>()([
  'key',
  'cert',
  'ca',
  'passphrase',
  'requestCert',
  'rejectUnauthorized',
]);

/** The options after defaults were applied (internal). */
export interface ResolvedHttpOptions {
  host: string;
  port: number;
  path: string;
  https?: HttpsOptions;
  stateless: boolean;
  sessionIdleTimeoutMs: number;
  maxSessions: number;
  sessionLimitPolicy: SessionLimitPolicy;
  maxListenStreams: number;
  /** Allowed Host / Origin hostnames, or undefined when that check is off. */
  allowedHosts?: string[];
  allowedOrigins?: string[];
  cors?: CorsOptions;
  authChallenge: string;
  resourceMetadataUrl?: string;
  maxRequestBodyBytes: number;
  healthPath: string | false;
  readyPath: string | false;
  keepAliveMs: number;
  ping?: PingSettings;
}

/** 30 minutes, in ms. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;
/** Default cap on live legacy sessions. */
export const DEFAULT_MAX_SESSIONS = 1000;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for hosts that only accept connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

/**
 * `value` when it is a finite number >= 0 (> 0 unless `allowZero`).
 * @throws InvalidOptionsError naming `owner` and the option otherwise.
 */
export function positive(name: string, value: number, allowZero: boolean, owner = 'HttpMcpServer'): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw invalidOptionValue(`${owner} option`, name, `a ${allowZero ? 'non-negative' : 'positive'} number`, value);
  }
  return value;
}

/**
 * `allowedOrigins` entries are hostnames (the SDK's check compares the Origin's hostname);
 * a full origin such as `https://app.example.com:8443` is accepted too and reduced to its
 * hostname. `<scheme>://*` wildcards pass through.
 */
export function originHostname(entry: string): string {
  if (!entry.includes('://') || entry.endsWith('://*')) return entry;
  try {
    return new URL(entry).hostname;
  } catch {
    return entry;
  }
}

function resolveHttps(https: HttpsOptions, owner: string): HttpsOptions {
  assertKnownOptions(`${owner} https option`, https, HTTPS_OPTION_KEYS);
  for (const field of ['key', 'cert'] as const) {
    if (https[field] === undefined)
      throw invalidOptionValue(`${owner} option`, `https.${field}`, HTTPS_RULES[field]!.expected, undefined);
  }
  checkOptionValues(`${owner} option`, https, HTTPS_RULES, 'https.');
  return https;
}

/** The options `HttpMcpServer` and `toFetchHandler` share, as given. */
export interface SharedEndpointInput {
  authorization?: unknown;
  authenticate?: unknown;
  path?: string;
  authChallenge?: string;
  resourceMetadataUrl?: string;
  maxRequestBodyBytes?: number;
  keepAliveMs?: number;
  maxListenStreams?: number;
}

/** The options `HttpMcpServer` and `toFetchHandler` share, with their defaults. */
export type SharedEndpointOptions = Pick<
  ResolvedHttpOptions,
  'path' | 'authChallenge' | 'resourceMetadataUrl' | 'maxRequestBodyBytes' | 'keepAliveMs' | 'maxListenStreams'
>;

/**
 * Applies the defaults of the options both endpoints share (`owner` names the endpoint in errors).
 * @throws InvalidOptionsError for `authorization` together with `authenticate`, or a bad `authorization`
 *   value (see `resolveAuthorization`).
 * @throws InvalidOptionsError on a negative or non-numeric size or interval, or a path without a leading `/`.
 */
export function resolveSharedEndpointOptions(
  owner: string,
  options: SharedEndpointInput,
  serverName: string,
): SharedEndpointOptions {
  if (options.authorization && options.authenticate) {
    throw new InvalidOptionsError(
      `${owner} option`,
      ['authenticate'],
      `${owner} options authorization and authenticate exclude each other: authorization verifies OAuth tokens itself.`,
    );
  }
  // Checked where it is given, not first at start().
  if (options.authorization !== undefined) resolveAuthorization(options.authorization as AuthorizationOptions, owner);
  const path = options.path ?? '/mcp';
  if (!ROUTE.test(path)) throw invalidOptionValue(`${owner} option`, 'path', ROUTE.expected, path);
  return {
    path,
    maxListenStreams: positive('maxListenStreams', options.maxListenStreams ?? 1024, false, owner),
    authChallenge:
      options.authChallenge ??
      (options.resourceMetadataUrl
        ? `Bearer resource_metadata="${options.resourceMetadataUrl}"`
        : `Bearer realm="${serverName.replace(/["\\]/g, '')}"`),
    resourceMetadataUrl: options.resourceMetadataUrl,
    maxRequestBodyBytes: positive(
      'maxRequestBodyBytes',
      options.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE,
      false,
      owner,
    ),
    keepAliveMs: positive('keepAliveMs', options.keepAliveMs ?? 15_000, true, owner),
  };
}

/**
 * Checks the option values and applies the documented defaults. The keys are checked by the caller
 * (`HttpMcpServer` with the base options, `serveHttp` with {@link HTTP_SERVE_OPTION_KEYS}).
 * @param owner - names the options in errors (`HttpMcpServer`, `serveHttp`).
 * @throws InvalidOptionsError when `options.https` has a key it does not define, or on an option value of the wrong type or range (a negative size or timeout, a port
 *   that is not an integer, `https` without `key` and `cert`), or a `healthPath` / `readyPath` another route answers.
 */
export function resolveHttpOptions(
  options: HttpMcpServerOptions,
  serverName: string,
  owner: 'HttpMcpServer' | 'serveHttp' = 'HttpMcpServer',
): ResolvedHttpOptions {
  checkOptionValues(`${owner} option`, options, HTTP_RULES);
  const shared = resolveSharedEndpointOptions(owner, options, serverName);
  const host = options.host ?? '127.0.0.1';
  const protect =
    options.dnsRebindingProtection ??
    (isLoopbackHost(host) || options.allowedHosts !== undefined || options.allowedOrigins !== undefined);
  const cors = options.cors === true ? {} : options.cors || undefined;
  const healthPath = options.healthPath ?? '/health';
  const readyPath = options.readyPath ?? '/ready';
  checkRouteConflicts(owner, options, {
    path: shared.path,
    healthPath,
    readyPath,
    authorization: !!options.authorization,
  });
  return {
    ...shared,
    host,
    port: positive('port', options.port ?? 3000, true, owner),
    https: options.https && resolveHttps(options.https, owner),
    stateless: options.stateless ?? false,
    sessionIdleTimeoutMs: positive(
      'sessionIdleTimeoutMs',
      options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
      true,
      owner,
    ),
    maxSessions: positive('maxSessions', options.maxSessions ?? DEFAULT_MAX_SESSIONS, false, owner),
    sessionLimitPolicy: options.sessionLimitPolicy ?? 'evict-lru',
    allowedHosts: protect ? (options.allowedHosts ?? localhostAllowedHostnames()) : undefined,
    allowedOrigins: protect ? (options.allowedOrigins?.map(originHostname) ?? localhostAllowedOrigins()) : undefined,
    cors,
    healthPath,
    readyPath,
    ping: resolvePing(owner, options),
  };
}
