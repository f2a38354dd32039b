import type { MiddlewareContext } from '../mcp/pipeline/middleware.js';

/** Whom a per-client budget or cache entry belongs to. */
export type ClientKeyKind = 'principal' | 'session' | 'ip';

/** `principal:<sub or clientId>` for an authenticated request, else undefined. */
export function principalKey(context: MiddlewareContext): string | undefined {
  const principal = context.principal;
  const id = principal?.subject ?? principal?.clientId;
  return id ? `principal:${id}` : undefined;
}

/**
 * The key of the caller by `by`; when the request has none of that kind (no principal on an
 * unauthenticated server, no session on stdio or 2026-07-28, no IP on stdio) the next one that it
 * has, in the order principal, session, IP, then `anonymous` (one shared key).
 */
export function clientKey(context: MiddlewareContext, by: ClientKeyKind): string {
  const session = context.sessionId ? `session:${context.sessionId}` : undefined;
  const ip = context.request?.remoteAddress ? `ip:${context.request.remoteAddress}` : undefined;
  const first = by === 'session' ? session : by === 'ip' ? ip : principalKey(context);
  return first ?? principalKey(context) ?? session ?? ip ?? 'anonymous';
}

/** The Redis client of a `createCluster()` membership (`link.command`, node-redis), or undefined. */
export function clusterRedisClient(cluster: object | undefined): object | undefined {
  const command = (cluster as { link?: { command?: unknown } } | undefined)?.link?.command;
  return typeof command === 'object' && command !== null ? command : undefined;
}
