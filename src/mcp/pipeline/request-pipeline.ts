import type { AuthInfo, Server, ServerContext } from '@modelcontextprotocol/server';
import type { Principal } from '../../auth/principal.js';
import type { HttpRequestInfo } from '../../registry/request-context.js';
import { httpRequestInfo, requestPrincipal } from '../context/request-origin.js';
import { requestEra } from '../context/tool-context-builder.js';

/**
 * What one stage of the pipeline sees of a request: the same fields on both eras and every
 * transport. Built only when at least one stage is registered.
 */
export interface PipelineContext {
  /** The JSON-RPC method (`tools/call`, `resources/read`, ...). */
  readonly method: string;
  /**
   * The request's params, as the SDK validated them for the method (undefined when there were none);
   * after a stage called `next(changed)`, the changed params (the later stages and the handler get them).
   */
  readonly params: unknown;
  /** For `tools/call`: the tool name in the (possibly changed) params; undefined for other methods. */
  readonly toolName: string | undefined;
  /** The JSON-RPC id of the request. */
  readonly requestId: string | number;
  /** `modern` for 2026-07-28 requests (a `_meta` envelope), `legacy` for the handshake revisions. */
  readonly era: 'legacy' | 'modern';
  /** `http` for Streamable HTTP; `stdio` for a stream connection (stdio, and the in-memory transport). */
  readonly transport: 'http' | 'stdio';
  /** What the HTTP `authenticate` hook (or the SDK's auth) established; undefined without one. */
  readonly authInfo: AuthInfo | undefined;
  /** Who is calling (see `ToolContext.principal`); undefined when unauthenticated. */
  readonly principal: Principal | undefined;
  /** The legacy session's id (`Mcp-Session-Id`); undefined on stdio and on 2026-07-28. */
  readonly sessionId: string | undefined;
  /** Aborted when the client cancels, the transport closes or the server stops. */
  readonly signal: AbortSignal;
  /** The HTTP request's headers; undefined on stdio. */
  readonly headers: Headers | undefined;
  /** The HTTP request (read-only headers, method, URL, peer address); undefined on stdio. */
  readonly request: HttpRequestInfo | undefined;
  /** Free per-request state for stages (one map per request, shared by every stage of it). */
  readonly state: Map<string | symbol, unknown>;
  /** The SDK's own context of the request (for what the fields above do not cover). */
  readonly sdk: ServerContext;
}

/**
 * Runs the later stages and the handler. Called with params, those replace the request's params
 * for the later stages and the handler (the SDK checked only the original ones).
 */
export type PipelineNext = (params?: unknown) => Promise<unknown>;

/**
 * One stage: an onion layer around the method's handler. It may read or change the context's
 * state, call `next()` (at most once, optionally with changed params) to run the later stages and
 * the handler, inspect or replace the result, throw (a `ProtocolError` becomes the JSON-RPC error)
 * or answer without `next()`.
 */
export type PipelineStage = (context: PipelineContext, next: PipelineNext) => unknown;

/**
 * How a handler's first argument (the request, or its params for a schema-validated handler) holds
 * the params: `read` takes them out, `replace` makes the argument for changed params.
 */
interface ParamsForm<I> {
  read(input: I): unknown;
  replace(input: I, params: unknown): I;
}

const requestParams: ParamsForm<unknown> = {
  read: (request) => (request as { params?: unknown } | undefined)?.params,
  replace: (request, params) => ({ ...(request as object), params }),
};
const validatedParams: ParamsForm<unknown> = { read: (params) => params, replace: (_input, params) => params };

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
  #entries: ReadonlyArray<{ readonly stage: PipelineStage; readonly methods?: ReadonlySet<string> }> = [];
  /** The stages each method runs (with the outermost one first), made on first use after a change. */
  #byMethod = new Map<string, readonly PipelineStage[]>();
  readonly #outermost: PipelineStage | undefined;

  /**
   * @param outermost - runs around every other stage of a request while that request has one (the
   *   error mapping of `server.use()`); it is not counted in {@link size} and alone never runs.
   */
  constructor(outermost?: PipelineStage) {
    this.#outermost = outermost;
  }

  /** How many stages are registered. */
  get size(): number {
    return this.#entries.length;
  }

  /**
   * Appends a stage (the first added is the outermost layer). With `methods`, only requests of those
   * methods pass it: the others keep the direct path while no other stage applies to them (so a
   * `tools/call` rate limit leaves `tools/list` on its cached fast path).
   * @returns a function that removes it again (for requests that start afterwards).
   */
  add(stage: PipelineStage, methods?: ReadonlySet<string>): () => void {
    const entry = { stage, methods };
    this.#entries = [...this.#entries, entry];
    this.#byMethod = new Map();
    return () => {
      this.#entries = this.#entries.filter((e) => e !== entry);
      this.#byMethod = new Map();
    };
  }

  #stagesOf(method: string): readonly PipelineStage[] {
    let stages = this.#byMethod.get(method);
    if (!stages) {
      stages = this.#entries.filter((e) => !e.methods || e.methods.has(method)).map((e) => e.stage);
      if (stages.length > 0 && this.#outermost) stages = [this.#outermost, ...stages];
      this.#byMethod.set(method, stages);
    }
    return stages;
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
      else register(method, first, this.handler(method, second as Handler, validatedParams as ParamsForm<unknown>));
    };
    return { setRequestHandler: setRequestHandler as unknown as Server['setRequestHandler'] };
  }

  /**
   * Wraps one handler of `method` so that requests pass the stages first. `form` says where the
   * handler's first argument holds the params (default: `input.params`, for handlers given the
   * request; {@link validatedParams} for those given validated params).
   */
  handler<I, R>(
    method: string,
    handler: (input: I, ctx: ServerContext) => R,
    form: ParamsForm<I> = requestParams as ParamsForm<I>,
  ): (input: I, ctx: ServerContext) => R {
    return (input, ctx) => {
      if (this.#entries.length === 0) return handler(input, ctx);
      const stages = this.#stagesOf(method);
      if (stages.length === 0) return handler(input, ctx);
      const original = form.read(input);
      const context = new StageContext(method, original, ctx);
      return run(stages, context, (params) =>
        handler(params === original ? input : form.replace(input, params), ctx),
      ) as R;
    };
  }
}

/** One request's {@link PipelineContext}; the principal and request info are made on first read. */
class StageContext implements PipelineContext {
  params: unknown;
  readonly requestId: string | number;
  readonly era: 'legacy' | 'modern';
  readonly transport: 'http' | 'stdio';
  readonly authInfo: AuthInfo | undefined;
  readonly sessionId: string | undefined;
  readonly signal: AbortSignal;
  readonly headers: Headers | undefined;
  readonly state = new Map<string | symbol, unknown>();
  #principal?: Principal | null;
  #request?: HttpRequestInfo | null;

  constructor(
    readonly method: string,
    params: unknown,
    readonly sdk: ServerContext,
  ) {
    this.params = params;
    this.requestId = sdk.mcpReq.id;
    this.era = requestEra(sdk);
    this.transport = sdk.http ? 'http' : 'stdio';
    this.authInfo = sdk.http?.authInfo;
    this.sessionId = sdk.sessionId;
    this.signal = sdk.mcpReq.signal;
    this.headers = sdk.http?.req?.headers;
  }

  get toolName(): string | undefined {
    if (this.method !== 'tools/call') return undefined;
    const name = (this.params as { name?: unknown } | undefined)?.name;
    return typeof name === 'string' ? name : undefined;
  }

  get principal(): Principal | undefined {
    if (this.#principal === undefined) this.#principal = requestPrincipal(this.authInfo) ?? null;
    return this.#principal ?? undefined;
  }

  get request(): HttpRequestInfo | undefined {
    if (this.#request === undefined) this.#request = httpRequestInfo(this.sdk) ?? null;
    return this.#request ?? undefined;
  }
}

/** Errors thrown by a handler (not by a stage): passed on unchanged by the error mapping of `server.use()`. */
const handlerErrors = new WeakSet<object>();

function markHandlerError(error: unknown): never {
  if (typeof error === 'object' && error !== null) handlerErrors.add(error);
  throw error;
}

/** True when `error` came out of a method's handler rather than out of a stage. */
export function isHandlerError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && handlerErrors.has(error);
}

/** Runs `stages` around `handler` as an onion; each `next` may be called once, with changed params or none. */
function run(
  stages: readonly PipelineStage[],
  context: StageContext,
  handler: (params: unknown) => unknown,
): Promise<unknown> {
  const at = (index: number): Promise<unknown> => {
    if (index === stages.length) return Promise.resolve(context.params).then(handler).catch(markHandlerError);
    let called = false;
    const next: PipelineNext = (...changed) => {
      if (called) return Promise.reject(new Error(`A pipeline stage called next() twice for ${context.method}.`));
      called = true;
      if (changed.length > 0) context.params = changed[0];
      return at(index + 1);
    };
    return Promise.resolve().then(() => stages[index]!(context, next));
  };
  return at(0);
}
