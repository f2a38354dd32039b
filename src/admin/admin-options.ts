import type { IncomingMessage } from 'node:http';
import { localhostAllowedHostnames, localhostAllowedOrigins } from '@modelcontextprotocol/server';
import type { BaseMcpServer } from '../mcp/mcp-server.js';
import type { HttpSessionInfo } from '../mcp/transports/http/session-map.js';
import { assertKnownOptions, optionKeys } from '../known-options.js';
import {
  BOOLEAN,
  checkArgument,
  checkOptionValues,
  FUNCTION,
  invalidOptionValue,
  msRule,
  OBJECT,
  STRING_ARRAY,
  valueRule,
  type ValueRules,
} from '../option-values.js';

/**
 * The part of a server the admin router uses: the public facade of `BaseMcpServer`, plus the
 * session calls of `HttpMcpServer` when present (without them the sessions API lists none).
 */
export type AdminServer = Pick<
  BaseMcpServer,
  | 'getToolStates'
  | 'tools'
  | 'enableTool'
  | 'disableTool'
  | 'setDisabledTools'
  | 'setToolOverride'
  | 'flushToolState'
  | 'events'
  | 'documents'
> &
  Partial<Pick<BaseMcpServer, 'upstreams'>> & {
    /** The cluster the server is a replica of (`cluster` option): enables `GET /api/cluster` and `/api/cluster/sessions`. */
    readonly cluster?: NonNullable<BaseMcpServer['cluster']> & ClusterStatusSource;
    listSessions?(): HttpSessionInfo[];
    closeSession?(sessionId: string): boolean;
    /**
     * `HttpMcpServer` with `authorization`: true when the request's OAuth access token verifies and
     * holds the admin scope (`authorization.adminScope`, default `mcp:admin`). The admin API then
     * accepts such tokens besides its own token.
     */
    verifyAdminToken?(request: IncomingMessage): Promise<boolean>;
  };

/**
 * Whether a replica's cluster backend (Redis) answers, as the settings page shows it: the shape of
 * `ClusterMembership.status()` for memberships that report one.
 */
export interface AdminClusterStatus {
  readonly reachable: boolean;
  /** When `reachable` last changed, ms since the epoch. */
  readonly since: number;
  /** The backend's address, without a password. */
  readonly url: string;
  /** Tool toggles made here that the backend has not confirmed yet. */
  readonly unconfirmedChanges: number;
  /** Notifications waiting to reach the other replicas. */
  readonly heldChanges: number;
}

/** A membership that may report its backend's status (optional: older memberships do not). */
export interface ClusterStatusSource {
  status?(): AdminClusterStatus;
  onStatus?(listener: (status: AdminClusterStatus) => void): () => void;
}

/**
 * Decides whether a request may use the admin API. Return true to allow; false (or throw) answers
 * 401. Runs on every API request (not on the static page, which holds no data).
 */
export type AdminAuthenticate = (request: IncomingMessage) => boolean | Promise<boolean>;

/** Options of {@link adminRouter}. One of `token` / `authenticate` is required. */
export interface AdminRouterOptions {
  /**
   * Bearer token the API requires (`Authorization: Bearer <token>`), compared in constant time.
   * Use a long random value (the CLI generates 32 random bytes, base64url).
   */
  token?: string;
  /** Your own check instead of the token (e.g. your app's session auth). When set, `token` is not checked. */
  authenticate?: AdminAuthenticate;
  /**
   * Accept requests whose TCP peer is not a loopback address. Default `false`: only 127.0.0.0/8
   * and ::1 may use the router (page included), whatever the server binds to. Behind a reverse
   * proxy on the same host every request looks local: keep the token secret.
   */
  allowRemote?: boolean;
  /** Allowed `Host` hostnames (DNS-rebinding protection, as the MCP endpoint). Default: localhost, 127.0.0.1, [::1]. */
  allowedHosts?: string[];
  /** Allowed `Origin` hostnames when a browser sends one. Default: localhost, 127.0.0.1, [::1]. */
  allowedOrigins?: string[];
  /** Record call statistics (count, errors, p50/p95, calls per second) from `toolCallFinished`. Default `true`. */
  statistics?: boolean;
  /** SSE keep-alive comment interval (ms). Default 15000. */
  keepAliveMs?: number;
}

/** Options with defaults applied. */
export interface ResolvedAdminOptions {
  readonly token?: string;
  readonly authenticate?: AdminAuthenticate;
  readonly allowRemote: boolean;
  readonly allowedHosts: string[];
  readonly allowedOrigins: string[];
  readonly statistics: boolean;
  readonly keepAliveMs: number;
}

const KEYS = optionKeys<AdminRouterOptions>()([
  'token',
  'authenticate',
  'allowRemote',
  'allowedHosts',
  'allowedOrigins',
  'statistics',
  'keepAliveMs',
]);
const SUBJECT = 'adminRouter option';
const TOKEN = valueRule('a string of at least 16 characters', (v) => typeof v === 'string' && v.length >= 16);
const RULES: ValueRules<AdminRouterOptions> = {
  token: TOKEN,
  authenticate: FUNCTION,
  allowRemote: BOOLEAN,
  allowedHosts: STRING_ARRAY,
  allowedOrigins: STRING_ARRAY,
  statistics: BOOLEAN,
  keepAliveMs: msRule(false),
};

/**
 * Checks `options` and applies the defaults.
 * @throws InvalidOptionsError (code `INVALID_OPTIONS`, naming the option, what it must be and what
 *   it got) when `options` is not an object, has an unknown key or a value of the wrong type, or
 *   has neither a `token` of at least 16 characters nor an `authenticate` function.
 */
export function resolveAdminOptions(options: AdminRouterOptions): ResolvedAdminOptions {
  checkArgument(SUBJECT, 'options', options, OBJECT);
  assertKnownOptions(SUBJECT, options, KEYS);
  if (options.authenticate === undefined && !TOKEN.test(options.token)) {
    throw invalidOptionValue(
      SUBJECT,
      'token',
      `${TOKEN.expected} (or an \`authenticate\` function)`,
      options.token,
      'The admin API is never open.',
    );
  }
  checkOptionValues(SUBJECT, options, RULES);
  return {
    token: options.token,
    authenticate: options.authenticate,
    allowRemote: options.allowRemote ?? false,
    allowedHosts: options.allowedHosts ?? localhostAllowedHostnames(),
    allowedOrigins: options.allowedOrigins ?? localhostAllowedOrigins(),
    statistics: options.statistics ?? true,
    keepAliveMs: options.keepAliveMs ?? 15_000,
  };
}
