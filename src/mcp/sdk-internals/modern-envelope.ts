import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  Server,
  type JSONRPCRequest,
  type Result,
} from '@modelcontextprotocol/server';
import { isPlainObject } from '../wire/plain-object.js';
import { changedSource } from './fingerprint.js';

// The 2026-07-28 envelope of a `tools/call` that `stdio-tools-call.ts` serves: lifted out of `_meta`
// as the SDK lifts it, checked by the SDK codec (an envelope it passed is not parsed again while the
// client sends the same one), and the result handed to the codec's `encodeResult` with the keys its
// stamps add already in place. The self-check of what is reproduced here is `modernToolsCallMismatch`.

/** The 2026-07-28 codec's era name (2.4). */
export const MODERN_ERA = '2026-07-28';

/** The parts of the SDK's 2026-07-28 wire codec (2.4) used here. */
interface EnvelopeCodec {
  readonly era: string;
  checkInboundEnvelope(material: object): string | undefined;
  encodeResult(method: string, result: Result, serverInfo: unknown): unknown;
}

/** What the SDK lifts out of `_meta` (2026-07-28 envelope keys, in its order); such 2025-11-25 requests take its path. */
const ENVELOPE_KEYS: readonly string[] = [
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
];

/** Whether `meta` (a request's `params._meta`) holds a key of the 2026-07-28 envelope. */
export function hasEnvelopeKeys(meta: unknown): boolean {
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
export function liftEnvelope(
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
 * `Server._invokeInputRequiredCapableHandler` (which `wrapPlainToolsCall`, the plain form of the view's
 * `tools/call` wrapper, skips for an answer that is not input-required). The methods, not their classes: this is checked
 * when the first 2026-07-28 stdio view connects, and hashing both classes' sources (65 k characters)
 * took ~3 ms there.
 */
const MODERN_FINGERPRINTS: Readonly<Record<string, readonly string[]>> = {
  'Protocol._onrequest': ['82faa204'],
  'Server._invokeInputRequiredCapableHandler': ['120fe16e', '7204926d'],
};

let modernVerdict: string | undefined | null = null;

/**
 * Why `stdio-tools-call.ts` leaves 2026-07-28 requests to the SDK (a changed method, a lift that
 * differs from {@link liftEnvelope}), or undefined when it serves them. Checked once: the methods'
 * fingerprints, then the SDK's own `_onrequest` run on a probe server, whose context must carry the
 * `_meta` and `envelope` {@link liftEnvelope} makes of the same requests.
 */
export function modernToolsCallMismatch(): string | undefined {
  if (modernVerdict !== null) return modernVerdict;
  const server = Server.prototype as unknown as Record<string, unknown>;
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
    const probe = new Server({ name: 'lift-probe', version: '0' }) as unknown as Record<string, unknown>;
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
const passedEnvelopes = new WeakMap<EnvelopeCodec, unknown>();

/**
 * Whether two decoded JSON values hold the same data: the same own keys with the same values, in any
 * order (enumerated with `for...in`: no key arrays per object; JSON objects have no inherited keys).
 * Own keys only: a `"__proto__"` key of the JSON text is an own key once parsed, which `in` would
 * match with the inherited `Object.prototype` (it stood in for a missing `name` that way).
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
    if (!Object.hasOwn(right, key)) return false;
    if (!Object.hasOwn(left, key) || !sameJson(left[key], right[key])) return false;
    keys += 1;
  }
  for (const key in left) if (Object.hasOwn(left, key)) keys -= 1;
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
export function envelopeRefusal(
  codec: EnvelopeCodec,
  material: { envelope?: Record<string, unknown> },
): string | undefined {
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
const slotsFit = new WeakMap<EnvelopeCodec, boolean>();

/** Results {@link encodeSlotsFit} encodes with and without slots (a plain one, an error, one with `_meta`, odd `_meta`). */
const SLOT_SAMPLES: readonly Result[] = [
  { content: [{ type: 'text', text: 'a' }] },
  { content: [], isError: true },
  { content: [], structuredContent: { n: 1 }, _meta: { a: 1 } },
  { content: [], _meta: 5 as never },
];

/** Whether `codec` encodes every {@link SLOT_SAMPLES} result to the same JSON (keys in the same order) with slots. */
function encodeSlotsFit(codec: EnvelopeCodec): boolean {
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
export function withEncodeSlots(codec: EnvelopeCodec, result: Result): Result {
  if (codec.era !== MODERN_ERA || typeof result !== 'object' || result === null || 'resultType' in result)
    return result;
  if (!encodeSlotsFit(codec)) return result;
  return slotted(result);
}
