import type { AuthInfo, Server, ServerContext } from '@modelcontextprotocol/server';
import { requestEra } from '../context/tool-context-builder.js';

/**
 * What one stage of the pipeline sees of a request: the same fields on both eras and every
 * transport. Built only when at least one stage is registered.
 */
export interface PipelineContext {
  /** The JSON-RPC method (`tools/call`, `resources/read`, ...). */
  readonly method: string;
  /** The request's params, as the SDK validated them for the method (undefined when there were none). */
  readonly params: unknown;
  /** `modern` for 2026-07-28 requests (a `_meta` envelope), `legacy` for the handshake revisions. */
  readonly era: 'legacy' | 'modern';
  /** `http` for Streamable HTTP; `stdio` for a stream connection (stdio, and the in-memory transport). */
  readonly transport: 'http' | 'stdio';
  /** What the HTTP `authenticate` hook (or the SDK's auth) established; undefined without one. */
  readonly authInfo: AuthInfo | undefined;
  /** The legacy session's id (`Mcp-Session-Id`); undefined on stdio and on 2026-07-28. */
  readonly sessionId: string | undefined;
  /** Aborted when the client cancels, the transport closes or the server stops. */
  readonly signal: AbortSignal;
  /** The HTTP request's headers; undefined on stdio. */
  readonly headers: Headers | undefined;
  /** Free per-request state for stages (one map per request, shared by every stage of it). */
  readonly state: Map<string | symbol, unknown>;
  /** The SDK's own context of the request (for what the fields above do not cover). */
  readonly sdk: ServerContext;
}

/**
 * One stage: an onion layer around the method's handler. It may read or change the context's
 * state, call `next()` (at most once) to run the later stages and the handler, inspect or replace
 * the result, throw (a `ProtocolError` becomes the JSON-RPC error) or answer without `next()`.
 */
export type PipelineStage = (context: PipelineContext, next: () => Promise<unknown>) => unknown;

/** Turns what a handler was given (the request, or its params for a schema-validated handler) into the params. */
type ParamsOf<I> = (input: I) => unknown;

const requestParams = (request: unknown) => (request as { params?: unknown } | undefined)?.params;
const validatedParams = (params: unknown) => params;

/** Where a view registers its request handlers: the SDK server's own `setRequestHandler`, through the pipeline. */
export type HandlerRoutes = Pick<Server, 'setRequestHandler'>;

/**
 * The one request pipeline (issue 23): every view registers its handlers through
 * {@link RequestPipeline.handler}, so every request of every era and transport passes the same
 * stages between the SDK's decoding (and the HTTP authentication before it) and the handler.
 * One pipeline per server, shared by all its views.
 *
 * With no stage registered (the default) a wrapped handler calls the handler directly: no context
 * is built and a result is passed on as it is (the cached `tools/list` JSON stays cached). Stages
 * added later apply to requests that start after, on every live view.
 */
export class RequestPipeline {
  #stages: readonly PipelineStage[] = [];

  /** How many stages are registered. */
  get size(): number {
    return this.#stages.length;
  }

  /**
   * Appends a stage (the first added is the outermost layer).
   * @returns a function that removes it again (for requests that start afterwards).
   */
  add(stage: PipelineStage): () => void {
    this.#stages = [...this.#stages, stage];
    return () => {
      this.#stages = this.#stages.filter((s) => s !== stage);
    };
  }

  /**
   * The registration door of one view: `setRequestHandler` with the SDK's signature (both the
   * request form and the `{ params }` schema form), each handler wrapped by {@link handler}.
   */
  routes(server: Server): HandlerRoutes {
    type Handler = (input: unknown, ctx: ServerContext) => unknown;
    const register = server.setRequestHandler.bind(server) as unknown as (method: string, ...rest: unknown[]) => void;
    const setRequestHandler = (method: string, first: unknown, second?: unknown) => {
      if (second === undefined) register(method, this.handler(method, first as Handler));
      else register(method, first, this.handler(method, second as Handler, validatedParams));
    };
    return { setRequestHandler: setRequestHandler as unknown as Server['setRequestHandler'] };
  }

  /**
   * Wraps one handler of `method` so that requests pass the stages first. `paramsOf` reads the
   * params from the handler's first argument (default: `input.params`, for handlers given the
   * request; pass `(params) => params` for those given validated params).
   */
  handler<I, R>(
    method: string,
    handler: (input: I, ctx: ServerContext) => R,
    paramsOf: ParamsOf<I> = requestParams,
  ): (input: I, ctx: ServerContext) => R {
    return (input, ctx) => {
      const stages = this.#stages;
      if (stages.length === 0) return handler(input, ctx);
      const context = pipelineContext(method, paramsOf(input), ctx);
      return run(stages, context, () => handler(input, ctx)) as R;
    };
  }
}

function pipelineContext(method: string, params: unknown, ctx: ServerContext): PipelineContext {
  return {
    method,
    params,
    era: requestEra(ctx),
    transport: ctx.http ? 'http' : 'stdio',
    authInfo: ctx.http?.authInfo,
    sessionId: ctx.sessionId,
    signal: ctx.mcpReq.signal,
    headers: ctx.http?.req?.headers,
    state: new Map(),
    sdk: ctx,
  };
}

/** Runs `stages` around `handler` as an onion; each `next` may be called once. */
function run(stages: readonly PipelineStage[], context: PipelineContext, handler: () => unknown): Promise<unknown> {
  const at = (index: number): Promise<unknown> => {
    if (index === stages.length) return Promise.resolve().then(handler);
    let called = false;
    const next = () => {
      if (called) return Promise.reject(new Error(`A pipeline stage called next() twice for ${context.method}.`));
      called = true;
      return at(index + 1);
    };
    return Promise.resolve().then(() => stages[index]!(context, next));
  };
  return at(0);
}
