import { isPlainObject } from './plain-object.js';

/**
 * Values whose JSON is computed once and reused on every response that carries them.
 *
 * The shared `tools/list` array (the registry's frozen, cached list) is the same object for
 * every client until the next change, yet the SDK transports `JSON.stringify` every message
 * they write: at 1,000 tools that is most of a `tools/list` response's CPU. A transport writer
 * that knows this mark (see `http/cached-sse-writer.ts`) splices the cached JSON into the
 * message instead, byte for byte what `JSON.stringify` would have produced.
 *
 * Only frozen arrays are accepted; their entries are the registry's frozen `tools/list`
 * entries, built once per tool (see `Tool.compiled()`), so the JSON cannot go stale. A
 * change in the registry makes a new array, hence a new entry here.
 */
interface Entry {
  /** The frozen array the JSON is made of. */
  readonly source: readonly unknown[];
  bytes?: Uint8Array;
}

/** Marked arrays (and their response copies) -> their shared entry. */
const marked = new WeakMap<object, Entry>();
const encoder = new TextEncoder();

/** Marks a frozen array as serializable once (no-op for anything else). */
export function markSerializedOnce(value: readonly unknown[]): void {
  if (Object.isFrozen(value) && !marked.has(value)) marked.set(value, { source: value });
}

/**
 * The UTF-8 JSON of a marked value or of its response copy (computed on first use, always from
 * the frozen source), or undefined when it is not marked.
 */
export function serializedOnce(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = marked.get(value);
  if (!entry) return undefined;
  return (entry.bytes ??= encoder.encode(JSON.stringify(entry.source)));
}

/** The frozen source of a response copy made by {@link responseArray}; undefined for anything else. */
export function responseSource(value: object): readonly unknown[] | undefined {
  const entry = marked.get(value);
  return entry && entry.source !== value ? entry.source : undefined;
}

/**
 * The array to put into a response for a marked frozen array: a plain (extensible) copy, marked
 * as sharing the source's cached JSON. Why a copy: V8 (Node 20) has no fast path for
 * `Array.prototype.some` and its kin on a frozen array, and the SDK's `tools/list` encoder runs
 * `tools.some(...)` over every listed tool on every response (several times slower on the frozen
 * array; docs/performance.md, W4). A fresh copy per response is cheap, and needed: the
 * in-memory transport hands the response object itself to the client, so a shared copy would let
 * one client's `sort()` change what the others are sent.
 * Returns `value` itself when it is not marked.
 */
export function responseArray<T>(value: readonly T[]): readonly T[] {
  const entry = marked.get(value);
  if (!entry || entry.source !== value) return value;
  const copy = value.slice();
  marked.set(copy, entry);
  return copy;
}

/** Stands for the cached value in a message's JSON; cannot come out of JSON.stringify of anything else. */
const PLACEHOLDER = '\u0000mcp-toolkit:serialized-once\u0000';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

/** `JSON.stringify` of a response in three parts: the JSON around a marked `result.tools`, and its cached bytes. */
export interface SerializedAroundTools {
  /** The JSON text before the array (`{"jsonrpc":"2.0","id":1,"result":{"tools":`, in the message's key order). */
  readonly before: string;
  /** The array's cached UTF-8 JSON, shared by every response that lists it (never to be modified). */
  readonly tools: Uint8Array;
  /** The JSON text after the array. */
  readonly after: string;
}

/**
 * `JSON.stringify(message)` split around its `result.tools` when that is a marked array (or its
 * response copy): `before + tools + after` is byte for byte what `JSON.stringify` gives, while the
 * ~200 KB of a 1,000-tool list are not serialized again. Undefined for any other message. Both HTTP
 * legs write `tools/list` answers with it (`sdk-internals/cached-sse-writer.ts` on sessions,
 * `sdk-internals/cached-json-response.ts` on 2026-07-28 requests).
 */
export function serializedAroundTools(message: unknown): SerializedAroundTools | undefined {
  if (!isPlainObject(message) || !isPlainObject(message.result)) return undefined;
  const tools = serializedOnce(message.result.tools);
  if (!tools) return undefined;
  const shell = JSON.stringify({ ...message, result: { ...message.result, tools: PLACEHOLDER } });
  const at = shell.indexOf(PLACEHOLDER_JSON);
  if (at < 0 || at !== shell.lastIndexOf(PLACEHOLDER_JSON)) return undefined;
  return { before: shell.slice(0, at), tools, after: shell.slice(at + PLACEHOLDER_JSON.length) };
}
