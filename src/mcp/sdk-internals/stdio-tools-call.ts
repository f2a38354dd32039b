import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  Server as SdkServer,
  type JSONRPCRequest,
  type RequestId,
  type Result,
  type Server,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../wire/plain-object.js';
import { changedSource } from './fingerprint.js';
import { LazyRequestAbort } from './lazy-request-abort.js';
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

/** The two eras served here, as the SDK's codecs (2.4) name them: the handshake era and 2026-07-28. */
const HANDSHAKE_ERA = '2025-11-25';
const MODERN_ERA = '2026-07-28';
/** What the SDK lifts out of `_meta` (2026-07-28 envelope keys, in its order); such 2025-11-25 requests take its path. */
const ENVELOPE_KEYS: readonly string[] = [
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
];
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

/** Whether `meta` (a request's `params._meta`) holds a key of the 2026-07-28 envelope. */
function hasEnvelopeKeys(meta: unknown): boolean {
  return isPlainObject(meta) && ENVELOPE_KEYS.some((key) => key in meta);
}

/** Whether `key` is one of the 2026-07-28 envelope keys the SDK lifts. */
function isEnvelopeKey(key: string): boolean {
  return (
    key === PROTOCOL_VERSION_META_KEY ||
    key === CLIENT_INFO_META_KEY ||
    key === CLIENT_CAPABILITIES_META_KEY ||
    key === LOG_LEVEL_META_KEY
  );
}

/**
 * The SDK's `liftWireOnlyMaterial(request, 'request')` (2.4, not exported; checked by
 * {@link modernToolsCallMismatch}) for a request without retry fields (`inputResponses`,
 * `requestState`) whose `_meta` holds envelope keys: the envelope (its keys in the SDK's order) and
 * a copy of the request whose `params._meta` keeps the other keys (in their order; no `_meta` when
 * none is left), as the SDK makes them: the same keys in the same order. One statement per envelope
 * key, so each store sees one key (a loop over them is a megamorphic store per key). Undefined when
 * there is no envelope key: the SDK then answers its missing-envelope error.
 */
function liftEnvelope(
  request: JSONRPCRequest,
): { request: JSONRPCRequest; envelope: Record<string, unknown> } | undefined {
  const params = request.params!;
  const meta = params._meta;
  if (!isPlainObject(meta)) return undefined;
  let envelope: Record<string, unknown> | undefined;
  if (PROTOCOL_VERSION_META_KEY in meta) (envelope ??= {})[PROTOCOL_VERSION_META_KEY] = meta[PROTOCOL_VERSION_META_KEY];
  if (CLIENT_INFO_META_KEY in meta) (envelope ??= {})[CLIENT_INFO_META_KEY] = meta[CLIENT_INFO_META_KEY];
  if (CLIENT_CAPABILITIES_META_KEY in meta) {
    (envelope ??= {})[CLIENT_CAPABILITIES_META_KEY] = meta[CLIENT_CAPABILITIES_META_KEY];
  }
  if (LOG_LEVEL_META_KEY in meta) (envelope ??= {})[LOG_LEVEL_META_KEY] = meta[LOG_LEVEL_META_KEY];
  if (!envelope) return undefined;
  // The SDK's `{ ...meta }` less the envelope keys: its own enumerable keys, in their order.
  let rest: Record<string, unknown> | undefined;
  for (const key in meta) if (!isEnvelopeKey(key) && Object.hasOwn(meta, key)) (rest ??= {})[key] = meta[key];
  let nextParams: Record<string, unknown>;
  if (rest) {
    nextParams = { ...params };
    nextParams._meta = rest; // in its place, as the SDK's spread then set
  } else {
    // The SDK's `{ ...params }` then `delete _meta`: the same keys in the same order, built without
    // the delete (which leaves V8 a dictionary-mode object, slower to read for the request's parse).
    const { _meta: _lifted, ...others } = params;
    nextParams = others;
  }
  return { request: { ...request, params: nextParams } as JSONRPCRequest, envelope };
}

/**
 * Source fingerprints of the SDK methods the 2026-07-28 path reproduces (2.4.0; ESM and CJS):
 * `Protocol._onrequest` (its steps, which start with the envelope lift) and
 * `Server._invokeInputRequiredCapableHandler` (which {@link recordPlainToolsCall}'s plain form
 * skips for an answer that is not input-required). The methods, not their classes: this is checked
 * when the first 2026-07-28 stdio view connects, and hashing both classes' sources (65 k characters)
 * took ~3 ms there.
 */
const MODERN_FINGERPRINTS: Readonly<Record<string, readonly string[]>> = {
  'Protocol._onrequest': ['82faa204'],
  'Server._invokeInputRequiredCapableHandler': ['120fe16e', '7204926d'],
};

let modernVerdict: string | undefined | null = null;

/**
 * Why {@link serveToolsCall} leaves 2026-07-28 requests to the SDK (a changed method, a lift that
 * differs from {@link liftEnvelope}), or undefined when it serves them. Checked once: the methods'
 * fingerprints, then the SDK's own `_onrequest` run on a probe server, whose context must carry the
 * `_meta` and `envelope` {@link liftEnvelope} makes of the same requests.
 */
export function modernToolsCallMismatch(): string | undefined {
  if (modernVerdict !== null) return modernVerdict;
  const server = SdkServer.prototype as unknown as Record<string, unknown>;
  const sources = {
    'Protocol._onrequest': server._onrequest,
    'Server._invokeInputRequiredCapableHandler': server._invokeInputRequiredCapableHandler,
  };
  const changed = changedSource(sources, MODERN_FINGERPRINTS);
  modernVerdict = changed ? `${changed} changed` : liftMismatch();
  return modernVerdict;
}

/** Requests whose lift the probe compares (envelope keys out of order, other keys before and after, none left). */
const LIFT_SAMPLES: Array<Record<string, unknown>> = [
  {
    a: 1,
    [CLIENT_CAPABILITIES_META_KEY]: {},
    [LOG_LEVEL_META_KEY]: 'info',
    [PROTOCOL_VERSION_META_KEY]: MODERN_ERA,
    z: [2],
    [CLIENT_INFO_META_KEY]: { name: 'probe', version: '0' },
  },
  { [PROTOCOL_VERSION_META_KEY]: MODERN_ERA, [CLIENT_CAPABILITIES_META_KEY]: {} },
];

/** Undefined when the SDK's `_onrequest` lifts {@link LIFT_SAMPLES} as {@link liftEnvelope} does, else why not. */
function liftMismatch(): string | undefined {
  try {
    const probe = new SdkServer({ name: 'lift-probe', version: '0' }) as unknown as Record<string, unknown>;
    type Seen = { _meta?: unknown; envelope?: unknown } | undefined;
    const seen: { mcpReq?: Seen } = {};
    probe._negotiatedProtocolVersion = MODERN_ERA;
    probe.fallbackRequestHandler = () => new Promise<never>(() => {});
    probe.buildContext = (ctx: typeof seen) => ((seen.mcpReq = ctx.mcpReq), ctx);
    for (const [id, meta] of LIFT_SAMPLES.entries()) {
      seen.mcpReq = undefined;
      const request = { jsonrpc: '2.0' as const, id, method: 'tools/call', params: { name: 't', _meta: meta } };
      (probe._onrequest as (request: JSONRPCRequest) => void).call(probe, request);
      const sdk = seen.mcpReq as Seen; // set by the call above (TS narrows it to undefined)
      const ours = liftEnvelope(request);
      const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y); // keys in order too
      if (!sdk || !ours || !same(sdk._meta, ours.request.params?._meta) || !same(sdk.envelope, ours.envelope)) {
        return 'the SDK lifts the 2026-07-28 envelope differently';
      }
    }
    return undefined;
  } catch {
    return "the SDK's _onrequest could not be probed";
  }
}

/** Per codec, a copy of the last 2026-07-28 envelope its `checkInboundEnvelope` passed. */
const passedEnvelopes = new WeakMap<DispatchCodec, unknown>();

/**
 * Whether two decoded JSON values hold the same data: the same keys with the same values, in any
 * order (enumerated with `for...in`: no key arrays per object; JSON objects have no inherited keys).
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key in right) {
    if (!(key in left) || !sameJson(left[key], right[key])) return false;
    keys += 1;
  }
  for (const _key in left) keys -= 1;
  return keys === 0;
}

/**
 * Whether two envelopes {@link liftEnvelope} made hold the same data: they have no keys but the
 * envelope's, and no undefined values (JSON has none), so a key is present where its value is.
 */
function sameEnvelope(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return (
    a[PROTOCOL_VERSION_META_KEY] === b[PROTOCOL_VERSION_META_KEY] &&
    a[LOG_LEVEL_META_KEY] === b[LOG_LEVEL_META_KEY] &&
    sameJson(a[CLIENT_INFO_META_KEY], b[CLIENT_INFO_META_KEY]) &&
    sameJson(a[CLIENT_CAPABILITIES_META_KEY], b[CLIENT_CAPABILITIES_META_KEY])
  );
}

/**
 * The codec's `checkInboundEnvelope(material)`: undefined when the request's wire material passes,
 * else the SDK's message. A client sends the same envelope on every request (its revision, identity
 * and capabilities) and the check is a zod parse of it (~1 µs a call), whose verdict depends on the
 * data only (not on the objects, nor on the order of their keys): an envelope holding the same data
 * as the last one the same codec passed (a copy, so that a handler that changed its request's
 * envelope changes nothing here) passes without it.
 */
function envelopeRefusal(codec: DispatchCodec, material: { envelope?: Record<string, unknown> }): string | undefined {
  const { envelope } = material;
  if (envelope === undefined) return codec.checkInboundEnvelope(material);
  const passed = passedEnvelopes.get(codec) as Record<string, unknown> | undefined;
  if (passed && sameEnvelope(passed, envelope)) return undefined;
  const refusal = codec.checkInboundEnvelope(material);
  if (refusal === undefined) passedEnvelopes.set(codec, JSON.parse(JSON.stringify(envelope)));
  return refusal;
}

/** The keys the 2026-07-28 codec's `encodeResult` (2.4) appends to a `tools/call` result, in order. */
const ENCODE_SLOTS = ['resultType', '_meta'] as const;

/** Per codec: whether {@link withEncodeSlots} may hand it slotted results (checked once). */
const slotsFit = new WeakMap<DispatchCodec, boolean>();

/** Results {@link encodeSlotsFit} encodes with and without slots (a plain one, an error, one with `_meta`, odd `_meta`). */
const SLOT_SAMPLES: readonly Result[] = [
  { content: [{ type: 'text', text: 'a' }] },
  { content: [], isError: true },
  { content: [], structuredContent: { n: 1 }, _meta: { a: 1 } },
  { content: [], _meta: 5 as never },
];

/** Whether `codec` encodes every {@link SLOT_SAMPLES} result to the same JSON (keys in the same order) with slots. */
function encodeSlotsFit(codec: DispatchCodec): boolean {
  let fit = slotsFit.get(codec);
  if (fit === undefined) {
    const info = { name: 'slots', version: '0' };
    try {
      fit = SLOT_SAMPLES.every((sample) => {
        const plain = JSON.stringify(codec.encodeResult('tools/call', { ...sample }, info));
        return plain === JSON.stringify(codec.encodeResult('tools/call', slotted(sample), info));
      });
    } catch {
      fit = false;
    }
    slotsFit.set(codec, fit);
  }
  return fit;
}

/** A copy of `result` with the {@link ENCODE_SLOTS} it lacks added after its keys, undefined. */
function slotted(result: Result): Result {
  const copy: Record<string, unknown> = Object.assign({}, result);
  for (const key of ENCODE_SLOTS) if (!(key in copy)) copy[key] = undefined;
  return copy as Result;
}

/**
 * `result` as the 2026-07-28 codec's `encodeResult` is best handed it (the 2025-11-25 codec gets it
 * as it is): a copy with the keys the codec's stamps add (`resultType`, `_meta`) already there,
 * undefined, after its own keys, where the stamps append them. Each stamp spreads the result and
 * sets its key; on Node 20 a spread followed by a key the copy does not have builds a new hidden
 * class on every call (see `stable-context.ts`): ~700 ns of a ~870 ns encode. With the keys there,
 * the spreads keep the map, and the encoded result has the same keys in the same order with the same
 * values. A result that has a `resultType` already goes as it is; and slots are used only with a codec
 * seen to encode samples the same both ways ({@link encodeSlotsFit}).
 */
function withEncodeSlots(codec: DispatchCodec, result: Result): Result {
  if (codec.era !== MODERN_ERA || typeof result !== 'object' || result === null || 'resultType' in result)
    return result;
  if (!encodeSlotsFit(codec)) return result;
  return slotted(result);
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
