import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '../errors.js';
import type { Middleware, MiddlewareContext, MiddlewareHost } from '../mcp/pipeline/middleware.js';
import { clientKey, clusterRedisClient, type ClientKeyKind } from './client-key.js';
import { checkRateLimitOptions } from './middleware-options.js';

/** A budget: `points` requests per `durationMs`. */
export interface RateLimitBudget {
  /** Requests allowed per window (a positive integer). */
  readonly points: number;
  /** The window, in ms (at least 1000; counted in whole seconds by the store). */
  readonly durationMs: number;
}

/** Options of {@link rateLimit}. */
export interface RateLimitOptions extends RateLimitBudget {
  /**
   * Whose budget a request spends: `principal` (default; the token's `sub` or the client id),
   * `session` (legacy sessions) or `ip` (HTTP peer address), or a function of the context. A
   * request without that kind of key falls back to the next one it has (see `clientKey`).
   */
  readonly by?: ClientKeyKind | ((context: MiddlewareContext) => string);
  /** One budget per tool on `tools/call` (and per method otherwise). Default true; false: one budget for everything. */
  readonly perTool?: boolean;
  /** Budgets of particular tools, instead of `points` / `durationMs`. */
  readonly tools?: Readonly<Record<string, RateLimitBudget>>;
  /**
   * Where counts live: `'auto'` (default) uses the cluster's Redis when the server has the `cluster`
   * option (`createCluster()`), so every replica spends one budget, else this process's memory;
   * `'memory'` always memory; or a node-redis client of your own.
   */
  readonly store?: 'auto' | 'memory' | object;
  /** Prefix of the Redis keys. Default `mcp-toolkit:rate`. */
  readonly keyPrefix?: string;
}

function describe(budget: RateLimitBudget): string {
  const seconds = Math.ceil(budget.durationMs / 1000);
  return `${budget.points} per ${seconds} s`;
}

/**
 * Rate limiting middleware (`rate-limiter-flexible`): each caller (by principal, session or IP) has
 * `points` requests per `durationMs`, per tool unless `perTool` is false. A refused request gets a
 * `RateLimitedError` saying when to retry: on `tools/call` an `isError` tool result with
 * `_meta.retryAfterMs`, elsewhere the JSON-RPC error -32029 with `data.retryAfterMs`. Scope it with
 * `server.use(rateLimit(...), { methods: ['tools/call'] })` to count only tool calls.
 *
 * With the server's `cluster` (and `store: 'auto'`), counts are kept in the cluster's Redis, so the
 * budget is shared by every replica; while Redis does not answer, each replica counts in memory.
 *
 * @example
 * server.use(rateLimit({ points: 10, durationMs: 60_000, tools: { search: { points: 2, durationMs: 1000 } } }), {
 *   methods: ['tools/call'],
 * });
 * @throws InvalidOptionsError for a budget that is not a positive integer of points per at least one second,
 *   another option of the wrong type, or an unknown option.
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  checkRateLimitOptions(options);
  const by = options.by ?? 'principal';
  const perTool = options.perTool ?? true;
  const keyPrefix = options.keyPrefix ?? 'mcp-toolkit:rate';
  let redis: object | undefined = typeof options.store === 'object' ? options.store : undefined;
  const limiters = new Map<RateLimitBudget, RateLimiterAbstract>();
  const limiterFor = (budget: RateLimitBudget, index: string) => {
    let limiter = limiters.get(budget);
    if (!limiter) {
      const shape = {
        points: budget.points,
        duration: Math.ceil(budget.durationMs / 1000),
        keyPrefix: `${keyPrefix}:${index}`,
      };
      const memory = new RateLimiterMemory(shape);
      limiter = redis
        ? new RateLimiterRedis({ ...shape, storeClient: redis, useRedisPackage: true, insuranceLimiter: memory })
        : memory;
      limiters.set(budget, limiter);
    }
    return limiter;
  };

  const middleware: Middleware = async (context, next) => {
    const toolBudget = context.toolName === undefined ? undefined : options.tools?.[context.toolName];
    const budget = toolBudget ?? options;
    const who = typeof by === 'function' ? by(context) : clientKey(context, by);
    const what = perTool || toolBudget ? (context.toolName ?? context.method) : '*';
    try {
      await limiterFor(budget, toolBudget ? `tool:${context.toolName}` : 'all').consume(`${who}|${what}`);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const retryAfterMs = Math.max(1, refusal.msBeforeNext);
      const target = context.toolName === undefined ? context.method : `tool "${context.toolName}"`;
      throw new RateLimitedError(
        retryAfterMs,
        `Rate limit reached for ${target} (${describe(budget)}); try again in ${Math.ceil(retryAfterMs / 1000)} s.`,
      );
    }
    return next();
  };
  middleware.setup = (host: MiddlewareHost) => {
    if (options.store === undefined || options.store === 'auto') redis = clusterRedisClient(host.cluster);
  };
  return middleware;
}
