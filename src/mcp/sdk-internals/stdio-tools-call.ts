import {
  ProtocolErrorCode,
  type JSONRPCRequest,
  type RequestId,
  type Result,
  type Server,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { LazyRequestAbort } from './lazy-request-abort.js';
import {
  envelopeRefusal,
  hasEnvelopeKeys,
  liftEnvelope,
  MODERN_ERA,
  modernToolsCallMismatch,
  withEncodeSlots,
} from './modern-envelope.js';
import { PlainMcpReq, plainRequestContextApplies } from './plain-request-context.js';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** The parts of the SDK's wire codec (2.4) the SDK's `_onrequest` uses. */
interface DispatchCodec {
  readonly era: string;
  hasRequestMethod(method: string): boolean;
  checkInboundEnvelope(material: object): string | undefined;
  encodeResult(method: string, result: Result, serverInfo: unknown): unknown;
  encodeErrorCode(code: number): number;
}

/** The private parts of the SDK's `Protocol` (2.4) its `_onrequest` uses, and so this module. */
interface ProtocolParts {
  _negotiatedWireCodec(): DispatchCodec;
  _shouldDropInbound(message: JSONRPCRequest): unknown;
  _requestHandlers: Map<string, unknown>;
  fallbackRequestHandler?: unknown;
  _requestHandlerAbortControllers: Map<RequestId, { abort(reason?: unknown): void }>;
  _transport?: Transport;
  _outboundServerInfo(): unknown;
  _onerror(error: Error): void;
}

/** The handshake era's codec (2.4 names it by its revision); the other one served here is {@link MODERN_ERA}. */
const HANDSHAKE_ERA = '2025-11-25';
const NO_WIRE_MATERIAL = Object.freeze({});

/** What an installed `tools/call` handler does for a plain request: `run`, and `settle` on its rejections. */
interface PlainForm {
  run: Handler;
  /** Turns a rejection into the answer (a task handle) or throws the error to answer with. */
  settle: (error: unknown) => Result;
}

/** Installed `tools/call` handlers (what the SDK's table holds) -> their plain form. */
const plainForms = new WeakMap<object, PlainForm>();

/**
 * Records what the installed `tools/call` handler `installed` does for a request {@link serveToolsCall}
 * takes, as `run` then `settle` on a rejection: same answers and errors, none of the SDK's per-request
 * frames. A handler not recorded (a view with other internals, an app's own) keeps the SDK's path.
 */
export function recordPlainToolsCall(installed: object, run: Handler, settle: (error: unknown) => Result): void {
  plainForms.set(installed, { run, settle });
}

let enabled = true;

/**
 * Turns {@link serveToolsCall} on or off (tests compare both paths), and for stdio views connected
 * after this call the way past `serveStdio`'s queue (`deliverPlainCallsDirectly`); returns the
 * previous setting.
 */
export function setStdioToolsCallDispatch(on: boolean): boolean {
  const previous = enabled;
  enabled = on;
  return previous;
}

/** Whether {@link setStdioToolsCallDispatch} left the dispatch on. */
export function stdioToolsCallDispatchOn(): boolean {
  return enabled;
}

/**
 * Whether the SDK has every part {@link serveToolsCall} reads for `server`'s era (the self-check;
 * the canary reports it): on 2025-11-25 its private parts, on 2026-07-28 also the sources it
 * reproduces there ({@link modernToolsCallMismatch}).
 */
export function stdioToolsCallApplies(server: Server): boolean {
  const parts = server as unknown as Partial<ProtocolParts>;
  const codec = typeof parts._negotiatedWireCodec === 'function' ? parts._negotiatedWireCodec.call(server) : undefined;
  return (
    (codec?.era === HANDSHAKE_ERA || (codec?.era === MODERN_ERA && modernToolsCallMismatch() === undefined)) &&
    typeof codec.checkInboundEnvelope === 'function' &&
    typeof codec.encodeResult === 'function' &&
    typeof codec.encodeErrorCode === 'function' &&
    typeof parts._shouldDropInbound === 'function' &&
    parts._requestHandlers instanceof Map &&
    parts._requestHandlerAbortControllers instanceof Map &&
    typeof parts._outboundServerInfo === 'function' &&
    typeof parts._onerror === 'function' &&
    plainRequestContextApplies(server)
  );
}

/** The key of the hidden entry of the SDK's request table (never a request id: those are strings and numbers). */
const HOLD = Symbol('steady request table');
/** What the SDK's close aborts in that entry: nothing. */
const NO_REQUEST = Object.freeze({ abort(): void {} });

/**
 * Keeps the SDK's table of requests being served (`_requestHandlerAbortControllers`) from
 * shrinking: a sequential client empties it after every call, and on Node 20 deleting a `Map`'s
 * last entry rebuilds its hash table (~400 instructions; `mcp/server/steady-table.ts` says why).
 * One hidden entry stops that. The SDK reads the table by request id, and on close aborts every
 * value (this one's abort does nothing); `_onclose` replaces the table. Call after connecting,
 * where {@link stdioToolsCallApplies} holds.
 */
export function steadyRequestTable(server: Server): void {
  if (!steadyTableFits(server)) return;
  const table = (server as unknown as ProtocolParts)._requestHandlerAbortControllers as Map<unknown, unknown>;
  if (!table.has(HOLD)) table.set(HOLD, NO_REQUEST);
}

/** Prototypes already checked by {@link steadyTableFits}, with the answer. */
const fits = new WeakMap<object, boolean>();

/**
 * Whether the SDK uses its request table only as the hidden entry allows (checked on its source,
 * once per class): read, written and deleted by request id, and on close every value aborted.
 * An SDK that also counted or iterated it otherwise would see the entry: then none is added.
 */
export function steadyTableFits(server: Server): boolean {
  const proto = Object.getPrototypeOf(server) as object;
  let known = fits.get(proto);
  if (known === undefined) {
    let source = ''; // each class's whole source (a class's toString), up the chain
    for (let at: object | null = proto; at && at !== Object.prototype; at = Object.getPrototypeOf(at)) {
      source += `${String((at as { constructor: unknown }).constructor)}\n`;
    }
    // Each mention: `.get`/`.set`/`.delete` by id, `=` (a new table), `;` (read whole, in `_onclose`).
    const uses = [...source.matchAll(/\b_requestHandlerAbortControllers(\.\w+|\s*=(?!=)|;|)/g)].map((m) =>
      m[1]!.trim(),
    );
    known =
      uses.length > 0 &&
      uses.every((use) => ['.get', '.set', '.delete', '=', ';'].includes(use)) &&
      /of requestHandlerAbortControllers\.values\(\)\) controller\.abort\(/.test(source) &&
      !/\brequestHandlerAbortControllers\.(size|keys|entries|forEach)/.test(source);
    fits.set(proto, known);
  }
  return known;
}

/** How many 2026-07-28 requests {@link serveToolsCall} served (tests see that it took them). */
export const modernStdioToolsCallProbe = { served: 0 };

/**
 * Serves a plain `tools/call` (a request `plainMessageKind` accepted, without `task`,
 * `inputResponses` or `requestState`) on a 2025-11-25 or 2026-07-28 stdio view the way the SDK's
 * `Protocol._onrequest` (2.4) does, without its per-request machinery: the same checks in the same
 * order (drop hook, method in era, handler, envelope), the same context keys, the handler started in
 * a microtask, the result encoded by the codec, the SDK's response and error objects (same keys,
 * same order), the same `onerror` reports, cancellation and close through the SDK's own abort table.
 * What it leaves out: the `AbortController` (a {@link LazyRequestAbort} makes the signal on first
 * read), the context's closures (made on first read, {@link PlainMcpReq}), `buildContext`'s copies,
 * and, through the handler's plain form ({@link recordPlainToolsCall}), the async frames of the SDK's
 * input-required step.
 *
 * On 2026-07-28 the envelope is lifted out of `_meta` as the SDK lifts it ({@link liftEnvelope}): the
 * handler gets the lifted request, the context its envelope, and the envelope is checked by the
 * SDK's codec (`checkInboundEnvelope`); the result is stamped by the codec's `encodeResult`. A request
 * without envelope keys, or whose envelope the codec refuses, is left to the SDK, which answers its
 * error.
 *
 * Returns false, having done nothing, for anything else (a task, retry fields, envelope keys on
 * 2025-11-25, another era, a handler without a plain form, transport info): the caller then hands it
 * to the SDK.
 */
export function serveToolsCall(server: Server, request: JSONRPCRequest, extra: unknown): boolean {
  const params = request.params;
  if (!enabled || request.method !== 'tools/call' || extra !== undefined || !params) return false;
  if ('task' in params || 'inputResponses' in params || 'requestState' in params) return false;
  const parts = server as unknown as ProtocolParts;
  const codec = parts._negotiatedWireCodec();
  let served = request;
  let material: { envelope?: Record<string, unknown> } = NO_WIRE_MATERIAL;
  if (codec.era === MODERN_ERA) {
    const lifted = modernToolsCallMismatch() === undefined ? liftEnvelope(request) : undefined;
    if (!lifted) return false;
    served = lifted.request;
    material = { envelope: lifted.envelope };
  } else if (codec.era !== HANDSHAKE_ERA || hasEnvelopeKeys(params._meta)) return false;
  if (parts._shouldDropInbound(request) === 'drop') return false;
  if (!codec.hasRequestMethod('tools/call')) return false;
  const installed = parts._requestHandlers.get('tools/call') ?? parts.fallbackRequestHandler;
  const plain = typeof installed === 'function' ? plainForms.get(installed) : undefined;
  if (!plain || envelopeRefusal(codec, material) !== undefined) return false;
  if (material.envelope) modernStdioToolsCallProbe.served += 1;

  const transport = parts._transport;
  const { id } = request;
  const abort = new LazyRequestAbort();
  parts._requestHandlerAbortControllers.set(id, abort);
  const sessionId = transport?.sessionId;
  const mcpReq = new PlainMcpReq(server, served, abort, sessionId, material.envelope);
  const ctx = { sessionId, mcpReq, http: undefined };
  // The SDK's promise chain (then, then, catch, finally) as one reaction per step, none returning a promise.
  const done = (sent?: Promise<void>) => {
    const forget = () => {
      if (parts._requestHandlerAbortControllers.get(id) === abort) parts._requestHandlerAbortControllers.delete(id);
    };
    const failed = (error: unknown) => {
      parts._onerror(new Error(`Failed to send response: ${String(error)}`));
      forget();
    };
    if (sent) sent.then(forget, failed);
    else forget();
  };
  const answer = (result: Result) => {
    if (abort.aborted) return done();
    let encoded: unknown;
    try {
      encoded = codec.encodeResult('tools/call', withEncodeSlots(codec, result), parts._outboundServerInfo());
    } catch (error) {
      parts._onerror(new Error(`Failed to encode result for tools/call: ${String(error)}`));
      const failure = { code: ProtocolErrorCode.InternalError, message: 'Internal error' };
      transport
        ?.send({ jsonrpc: '2.0', id, error: failure })
        .catch((sendError: unknown) =>
          parts._onerror(new Error(`Failed to send an error response: ${String(sendError)}`)),
        );
      return done();
    }
    done(transport?.send({ result: encoded, jsonrpc: '2.0', id } as never));
  };
  const refuse = (error: Record<string, unknown>) => {
    if (abort.aborted) return done();
    // Read as the SDK reads them (a null or undefined thrown value fails here, as there).
    const code = Number.isSafeInteger(error['code']) ? (error['code'] as number) : ProtocolErrorCode.InternalError;
    done(
      transport?.send({
        jsonrpc: '2.0',
        id,
        error: {
          code: codec.encodeErrorCode(code),
          message: (error.message as string | undefined) ?? 'Internal error',
          ...(error['data'] !== undefined && { data: error['data'] }),
        },
      }),
    );
  };
  const guarded = (step: () => void) => {
    try {
      step();
    } catch (error) {
      done(Promise.reject(error));
    }
  };
  void Promise.resolve().then(() => {
    let answered: Promise<Result>;
    try {
      answered = plain.run(served, ctx as unknown as ServerContext);
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.then(
      (result) => guarded(() => answer(result)),
      (error: unknown) => {
        let settled: Result;
        try {
          settled = plain.settle(error);
        } catch (refined) {
          return guarded(() => refuse(refined as Record<string, unknown>));
        }
        guarded(() => answer(settled));
      },
    );
  });
  return true;
}
