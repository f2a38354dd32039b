import type { JSONRPCRequest, RequestId, Server, ServerContext } from '@modelcontextprotocol/server';
import { LazyRequestAbort } from './lazy-request-abort.js';

/** The private parts of the SDK's `Protocol`/`Server` (2.4) the request's methods call, as its `_onrequest` does. */
interface OutboundParts {
  _resolveOutboundCodec(method: string): unknown;
  _assertOutboundRequestInEra(codec: unknown, method: string): void;
  _notificationViaCodec(codec: unknown, notification: { method: string }, options: object): Promise<void>;
  _requestWithSchema(request: { method: string }, schema: unknown, options: object): Promise<unknown>;
  request(request: { method: string }, options?: object): Promise<unknown>;
  buildContext(ctx: object, transportInfo?: unknown): { mcpReq: Record<string, unknown> };
}

/** Whether the SDK server has the parts {@link PlainMcpReq} calls (the self-check). */
export function plainRequestContextApplies(server: object): boolean {
  const parts = server as Record<string, unknown>;
  const methods = [
    '_resolveOutboundCodec',
    '_assertOutboundRequestInEra',
    '_notificationViaCodec',
    '_requestWithSchema',
    'request',
    'buildContext',
  ];
  return methods.every((name) => typeof parts[name] === 'function');
}

/** The SDK's `isStandardSchema` (2.4). */
function isStandardSchema(value: unknown): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  return typeof (value as { '~standard'?: { validate?: unknown } })['~standard']?.validate === 'function';
}

const noRequestState = (): undefined => undefined;

/** What the SDK adds to `mcpReq` after `requestState`, in its order (2.4): made on first read here. */
const LAZY_KEYS = ['signal', 'send', 'notify', 'log', 'elicitInput', 'requestSampling'] as const;

/** Shared getter of a materialized request's own `signal` (read by a spread, too). */
function signalOf(this: PlainMcpReq): AbortSignal {
  return PlainMcpReq.abortOf(this)!.signal;
}

/**
 * `ctx.mcpReq` of a plain `tools/call` served by `stdio-tools-call.ts`: the SDK's fields (`id`,
 * `method`, `_meta`, on 2026-07-28 `envelope`, then `requestState`) are own fields, in that order;
 * `signal`, `send`, `notify`, `log`, `elicitInput` and `requestSampling` are made on the first read
 * of any of them, as the SDK's `_onrequest` and `buildContext` (2.4) make them (the last three by
 * `buildContext` itself), and then become own enumerable properties in the SDK's order, so that a
 * spread of `mcpReq` after that copies them (the SDK's legacy input shim and the pipeline's stage
 * context read `signal` before they spread). A plain call reads none of them: no signal, no
 * closures (W2 profile).
 */
export class PlainMcpReq {
  // Assigned in the constructor, in the SDK's key order (`envelope` only when there is one, as there).
  declare readonly id: RequestId;
  declare readonly method: string;
  declare readonly _meta: ServerContext['mcpReq']['_meta'];
  declare readonly envelope?: Record<string, unknown>;
  declare readonly requestState: () => undefined;
  readonly #server: Server;
  readonly #abort: LazyRequestAbort;
  readonly #sessionId: string | undefined;

  /** `envelope`: the 2026-07-28 `_meta` envelope the SDK lifted out of `request` (which is the lifted request). */
  constructor(
    server: Server,
    request: JSONRPCRequest,
    abort: LazyRequestAbort,
    sessionId: string | undefined,
    envelope?: Record<string, unknown>,
  ) {
    this.id = request.id;
    this.method = request.method;
    this._meta = request.params?._meta as ServerContext['mcpReq']['_meta'];
    if (envelope !== undefined) this.envelope = envelope;
    this.requestState = noRequestState;
    this.#server = server;
    this.#abort = abort;
    this.#sessionId = sessionId;
  }

  /** The lazy abort of `mcpReq` when it is a {@link PlainMcpReq}. */
  static abortOf(mcpReq: object): LazyRequestAbort | undefined {
    return #abort in mcpReq ? (mcpReq as PlainMcpReq).#abort : undefined;
  }

  // `signal`, `send`, `notify`, `log`, `elicitInput`, `requestSampling`: prototype getters until first read.
  static {
    for (const key of LAZY_KEYS) {
      Object.defineProperty(PlainMcpReq.prototype, key, {
        get(this: PlainMcpReq): unknown {
          this.#materialize();
          return (this as unknown as Record<string, unknown>)[key];
        },
        configurable: true,
      });
    }
  }

  #materialize(): void {
    const server = this.#server as unknown as OutboundParts;
    const relatedRequestId = this.id;
    const notify = (notification: { method: string }, options?: object) =>
      server._notificationViaCodec(server._resolveOutboundCodec(notification.method), notification, {
        ...options,
        relatedRequestId,
      });
    const send = (request: { method: string }, schemaOrOptions?: unknown, maybeOptions?: object) => {
      if (isStandardSchema(schemaOrOptions)) {
        return server._requestWithSchema(request, schemaOrOptions, { ...maybeOptions, relatedRequestId });
      }
      // The SDK's spec-method path (`Protocol.request`), with its TypeError worded for ctx.mcpReq.send().
      const codec = server._resolveOutboundCodec(request.method) as { validateResult(m: string, v: unknown): unknown };
      server._assertOutboundRequestInEra(codec, request.method);
      const probe = codec.validateResult(request.method, undefined) as { ok: boolean; reason?: string };
      if (!probe.ok && probe.reason === 'not-in-era') {
        throw new TypeError(
          `'${request.method}' is not a spec method; pass a result schema as the second argument to ctx.mcpReq.send().`,
        );
      }
      return server.request(request, { ...(schemaOrOptions as object | undefined), relatedRequestId });
    };
    const { id, method, _meta, envelope, requestState } = this;
    // What `buildContext` reads of it: `log` reads the envelope's log level on 2026-07-28.
    const base = { id, method, _meta, ...(envelope !== undefined && { envelope }), requestState, notify };
    const built = server.buildContext({ sessionId: this.#sessionId, mcpReq: base, http: undefined }).mcpReq;
    const value = (v: unknown) => ({ value: v, enumerable: true, writable: true, configurable: true });
    Object.defineProperties(this, {
      signal: { get: signalOf, enumerable: true, configurable: true },
      send: value(send),
      notify: value(notify),
      log: value(built.log),
      elicitInput: value(built.elicitInput),
      requestSampling: value(built.requestSampling),
    });
  }
}

/**
 * What a tool call follows to learn that its request was aborted: the lazy abort of a request
 * served by `stdio-tools-call.ts` (no signal made), else the SDK's `ctx.mcpReq.signal`.
 */
export function requestAbortOf(ctx: ServerContext): AbortSignal | LazyRequestAbort {
  return PlainMcpReq.abortOf(ctx.mcpReq) ?? ctx.mcpReq.signal;
}
