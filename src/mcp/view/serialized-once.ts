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
const marked = new WeakMap<object, Uint8Array | null>();
const encoder = new TextEncoder();

/** Marks a frozen array as serializable once (no-op for anything else). */
export function markSerializedOnce(value: readonly unknown[]): void {
  if (Object.isFrozen(value) && !marked.has(value)) marked.set(value, null);
}

/** The UTF-8 JSON of a marked value (computed on first use), or undefined when it is not marked. */
export function serializedOnce(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'object' || value === null || !marked.has(value)) return undefined;
  let bytes = marked.get(value);
  if (!bytes) marked.set(value, (bytes = encoder.encode(JSON.stringify(value))));
  return bytes;
}
