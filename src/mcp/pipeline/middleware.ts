import type {
  CallToolRequestParams,
  CompleteRequestParams,
  GetPromptRequestParams,
  PaginatedRequestParams,
  ReadResourceRequestParams,
  SubscribeRequestParams,
  UnsubscribeRequestParams,
} from '@modelcontextprotocol/server';
import { invalidOptionValue } from '../../option-values.js';
import type { Logger } from '../../logger.js';
import type { PipelineContext, PipelineStage, RequestPipeline } from './request-pipeline.js';

/**
 * The params of each method that passes the middleware chain, as the SDK validated them
 * (MCP 2025-11-25 / 2026-07-28 schemas). The task methods' params are their own objects.
 */
export interface MiddlewareParams {
  'tools/call': CallToolRequestParams;
  'tools/list': PaginatedRequestParams | undefined;
  'resources/list': PaginatedRequestParams | undefined;
  'resources/read': ReadResourceRequestParams;
  'resources/templates/list': PaginatedRequestParams | undefined;
  'resources/subscribe': SubscribeRequestParams;
  'resources/unsubscribe': UnsubscribeRequestParams;
  'prompts/list': PaginatedRequestParams | undefined;
  'prompts/get': GetPromptRequestParams;
  'completion/complete': CompleteRequestParams;
  'tasks/get': { taskId: string } & Record<string, unknown>;
  'tasks/result': { taskId: string } & Record<string, unknown>;
  'tasks/cancel': { taskId: string } & Record<string, unknown>;
  'tasks/update': { taskId: string } & Record<string, unknown>;
  'tasks/list': PaginatedRequestParams | undefined;
}

/** A method a middleware can be scoped to. */
export type MiddlewareMethod = keyof MiddlewareParams;

/**
 * What a middleware sees of one request: the same fields on both protocol eras and every
 * transport, with `params` typed by `method` (check `context.method` to narrow them).
 * `state` is shared by every middleware of the request; `params` shows the changed params once
 * an outer middleware called `next(changed)`.
 */
export type MiddlewareContext = {
  [M in MiddlewareMethod]: Omit<PipelineContext, 'method' | 'params' | 'toolName'> & {
    readonly method: M;
    readonly params: MiddlewareParams[M];
    /** For `tools/call`: the tool name in the (possibly changed) params; undefined for other methods. */
    readonly toolName: M extends 'tools/call' ? string : undefined;
  };
}[MiddlewareMethod];

/** A JSON-RPC result object (the method's result: `CallToolResult`, `ListToolsResult`, ...). */
export type MiddlewareResult = Record<string, unknown>;

/**
 * Runs the later middleware and the handler and resolves with the result. Given params, those
 * replace the request's params for what runs after (the SDK validated only the original ones;
 * `tools/call` arguments are still checked against the tool's input schema).
 * May be called at most once per middleware and request.
 */
export type MiddlewareNext = (params?: unknown) => Promise<MiddlewareResult>;

/**
 * A middleware: an onion layer around every MCP request the server answers (`server.use()`),
 * run in registration order (the first registered is the outermost). It may call `next()` (with
 * changed params or none) and return its result, a changed one or its own (short-circuit, without
 * `next()`), or throw: a toolkit error (`UserError`, `RateLimitedError`, ...) becomes a tool result
 * with `isError: true` and the error's message on `tools/call`, and the JSON-RPC error on other
 * methods (`UserError` → -32602, `RateLimitedError` → -32029 with `data.retryAfterMs`, any other
 * → -32603); a `ProtocolError` is sent as it is.
 *
 * A middleware may have a `setup(host)` method: `server.use()` calls it once with the server's
 * cluster, tools and logger (how the built-ins find the cluster's Redis or a tool's annotations).
 *
 * @example
 * server.use(async (context, next) => {
 *   if (context.method === 'tools/call' && context.params.name === 'delete_all') {
 *     throw new UserError('delete_all is switched off on this server.');
 *   }
 *   const started = performance.now();
 *   try {
 *     return await next();
 *   } finally {
 *     console.error(`${context.method} took ${performance.now() - started} ms`);
 *   }
 * });
 */
export interface Middleware {
  (context: MiddlewareContext, next: MiddlewareNext): MiddlewareResult | Promise<MiddlewareResult>;
  /** Called once by `server.use()` before the first request reaches the middleware. */
  setup?(host: MiddlewareHost): void;
}

/** What `server.use()` gives a middleware's {@link Middleware.setup}. */
export interface MiddlewareHost {
  /**
   * The cluster the server is a replica of (its `cluster` option), or undefined. The built-ins
   * use its Redis connection (`createCluster()`'s `link.command`) when there is one.
   */
  readonly cluster: object | undefined;
  /** The server's diagnostics logger. */
  readonly logger: Logger;
  /** Looks a registered tool up by name (its annotations, e.g. `readOnlyHint`). */
  tool(name: string): { readonly annotations?: { readonly readOnlyHint?: boolean } } | undefined;
  /**
   * Calls `listener` after every change of what a list shows (tools registered, removed or toggled,
   * on this replica or pushed from another; prompts, resources, templates, documents).
   * @returns its remover.
   */
  onListsChanged(listener: () => void): () => void;
}

/** Anything with an `onChange(listener)` that returns a remover (the server's registries and document store). */
interface ChangeSource {
  onChange(listener: () => void): () => void;
}

/** What {@link useMiddleware} builds a {@link MiddlewareHost} from (the server's parts). */
export interface MiddlewareHostParts {
  readonly cluster: object | undefined;
  readonly logger: Logger;
  /** `getExposed` resolves the name a client calls (after tool overrides). */
  readonly registry: ChangeSource & { getExposed(name: string): ReturnType<MiddlewareHost['tool']> };
  /** Every other source of list changes. */
  readonly lists: readonly ChangeSource[];
}

function hostOf({ cluster, logger, registry, lists }: MiddlewareHostParts): MiddlewareHost {
  return {
    cluster,
    logger,
    tool: (name) => registry.getExposed(name),
    onListsChanged: (listener) => {
      const removers = [registry, ...lists].map((source) => source.onChange(() => listener()));
      return () => removers.forEach((remove) => remove());
    },
  };
}

/**
 * Which requests a middleware runs for; without a scope, every request. `methods` limits it to
 * those methods; `tools` limits `tools/call` to those tool names (and, without `methods`, the
 * middleware to `tools/call`). Requests outside the scope pass straight on.
 */
export interface MiddlewareScope {
  readonly methods?: readonly MiddlewareMethod[];
  readonly tools?: readonly string[];
}

/** The methods a scope admits (undefined: all), and a stage running `middleware` for the tools it admits. */
function scopedStage(middleware: Middleware, scope: MiddlewareScope | undefined) {
  const methods = scope?.methods
    ? new Set<string>(scope.methods)
    : scope?.tools
      ? new Set<string>(['tools/call'])
      : undefined;
  const tools = scope?.tools ? new Set(scope.tools) : undefined;
  const stage: PipelineStage = (context, next) => {
    if (tools && context.method === 'tools/call' && !tools.has(context.toolName!)) return next();
    return middleware(context as MiddlewareContext, next as MiddlewareNext);
  };
  return { stage, methods };
}

/**
 * Adds `middleware` to `pipeline` (the work of `server.use()`): calls its `setup(host)` once, and
 * runs it for the requests `scope` admits.
 * @returns a function that removes it (for requests that start afterwards).
 * @throws InvalidOptionsError when `middleware` is not a function, or `scope` names no method or tool.
 */
export function useMiddleware(
  pipeline: RequestPipeline,
  parts: MiddlewareHostParts,
  middleware: Middleware,
  scope?: MiddlewareScope,
): () => void {
  if (typeof middleware !== 'function') {
    throw invalidOptionValue(
      'server.use()',
      'middleware',
      'a middleware function (context, next) => result',
      middleware,
    );
  }
  if (scope && (scope.methods?.length === 0 || scope.tools?.length === 0)) {
    const empty = scope.methods?.length === 0 ? 'methods' : 'tools';
    throw invalidOptionValue('server.use() scope', empty, 'a non-empty array when given', []);
  }
  middleware.setup?.(hostOf(parts));
  const { stage, methods } = scopedStage(middleware, scope);
  return pipeline.add(stage, methods);
}
