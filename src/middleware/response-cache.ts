import { LRUCache } from 'lru-cache';
import type {
  Middleware,
  MiddlewareContext,
  MiddlewareHost,
  MiddlewareMethod,
  MiddlewareResult,
} from '../mcp/pipeline/middleware.js';
import { principalKey } from './client-key.js';
import { checkResponseCacheOptions } from './middleware-options.js';

/** Options of {@link responseCache}. */
export interface ResponseCacheOptions {
  /** How long an answer is reused, in ms. Default 60 000. */
  readonly ttlMs?: number;
  /** At most this many answers are kept (least recently used go first). Default 1000. */
  readonly maxEntries?: number;
  /**
   * The methods cached. Default: `tools/call` (only tools annotated `readOnlyHint: true`, and only
   * results without `isError`), `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list`.
   */
  readonly methods?: readonly MiddlewareMethod[];
}

const DEFAULT_METHODS: readonly MiddlewareMethod[] = [
  'tools/call',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
];

/** The params without `_meta` (progress tokens, trace context and the 2026-07-28 envelope differ per request). */
function cacheParams(params: unknown): unknown {
  if (typeof params !== 'object' || params === null || !('_meta' in params)) return params;
  const { _meta: _ignored, ...rest } = params as Record<string, unknown>;
  return rest;
}

/**
 * A response cache (`lru-cache`): answers of read-only tools (`annotations.readOnlyHint: true`) and of
 * the lists are reused for `ttlMs`, at most `maxEntries` of them, keyed by the caller's principal
 * (so one caller never sees another's answer: lists filtered by `canAccess` stay per caller), the
 * method and the params. Everything cached is dropped when anything a list shows changes (a tool
 * registered, removed or toggled on any replica, a prompt, resource or document), so clients told
 * of a change never read the old list and a disabled tool is refused, not answered from the cache.
 *
 * @throws InvalidOptionsError when `ttlMs` or `maxEntries` is not positive, another option has the wrong type,
 *   or an option is unknown.
 */
export function responseCache(options: ResponseCacheOptions = {}): Middleware {
  checkResponseCacheOptions(options);
  const ttl = options.ttlMs ?? 60_000;
  const max = options.maxEntries ?? 1000;
  const methods = new Set<string>(options.methods ?? DEFAULT_METHODS);
  const cache = new LRUCache<string, MiddlewareResult>({ max, ttl });
  let host: MiddlewareHost | undefined;

  const cacheable = (context: MiddlewareContext) => {
    if (!methods.has(context.method)) return false;
    if (context.method !== 'tools/call') return true;
    return host?.tool(context.toolName)?.annotations?.readOnlyHint === true;
  };

  const middleware: Middleware = async (context, next) => {
    if (!cacheable(context)) return next();
    const key = JSON.stringify([principalKey(context) ?? '', context.method, cacheParams(context.params)]);
    const hit = cache.get(key);
    if (hit) return hit;
    const result = await next();
    if (result.isError !== true) cache.set(key, result);
    return result;
  };
  middleware.setup = (given) => {
    host = given;
    // Also tool answers: a tool disabled or removed since must be refused, not answered from the cache.
    given.onListsChanged(() => cache.clear());
  };
  return middleware;
}
