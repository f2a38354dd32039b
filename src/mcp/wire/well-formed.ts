/**
 * Well-formed Unicode on the way out (RFC 8259 section 8.1: JSON text exchanged between
 * systems SHALL be UTF-8; a lone UTF-16 surrogate has no UTF-8 form, and `JSON.stringify`
 * writes it as a `\udXXX` escape that strict decoders and LLM APIs refuse).
 *
 * {@link wellFormed} replaces every lone surrogate in every string (keys included) of an
 * outgoing message with U+FFFD, as `String.prototype.toWellFormed` does. It copies only the
 * objects on the path to a changed string and returns `value` itself when nothing changed,
 * so the common case allocates nothing. Frozen objects (the registry's cached `tools/list`
 * entries) cannot change, so each is checked once and remembered: a cached list keeps its
 * identity and its serialize-once JSON. Its response copy (`responseArray`) is checked through
 * the frozen source it copies.
 */
import { responseSource } from './serialized-once.js';

const checkedFrozen = new WeakSet<object>();

/**
 * Marks a wire (a transport that serializes messages itself) that makes a message sent with
 * {@link WELL_FORMED_AT_WIRE} well-formed after serializing it ({@link wellFormedLine}).
 */
export const WRITES_WELL_FORMED = Symbol('mcp-toolkit.writesWellFormed');

/**
 * Send options of a message to be made well-formed by a {@link WRITES_WELL_FORMED} wire rather than
 * before sending: the check on the serialized line costs a substring search, the walk of the message
 * a few k instructions per stdio call (docs/performance.md, fifth round).
 */
export const WELL_FORMED_AT_WIRE = Object.freeze({});

/**
 * `serialize(message)`, made well-formed as {@link wellFormed} would make `message`: `JSON.stringify`
 * writes a lone surrogate as a `\u` escape, so a line without one needs nothing.
 */
export function wellFormedLine<T>(message: T, serialize: (message: T) => string): string {
  const line = serialize(message);
  return line.includes('\\u') ? serialize(wellFormed(message)) : line;
}

/** ES2024 string methods (Node >= 20), not in the compiler's ES2023 lib. */
type Es2024String = string & { isWellFormed(): boolean; toWellFormed(): string };

/** Whether `text` has no lone surrogate (ES2024 `isWellFormed`). */
export function isWellFormedText(text: string): boolean {
  return (text as Es2024String).isWellFormed();
}

function fixString(text: string): string {
  return isWellFormedText(text) ? text : (text as Es2024String).toWellFormed();
}

/** `value` with every lone surrogate replaced by U+FFFD; `value` itself when it had none. */
export function wellFormed<T>(value: T): T {
  return fix(value) as T;
}

function fix(value: unknown): unknown {
  if (typeof value === 'string') return fixString(value);
  if (typeof value !== 'object' || value === null) return value;
  const frozen = Object.isFrozen(value);
  if (frozen && checkedFrozen.has(value)) return value;
  const source = !frozen && Array.isArray(value) ? responseSource(value) : undefined;
  if (source && fix(source) === source) return value;
  const fixed = Array.isArray(value) ? fixArray(value) : fixObject(value as Record<string, unknown>);
  if (frozen && fixed === value) checkedFrozen.add(value);
  return fixed;
}

function fixArray(items: readonly unknown[]): unknown[] | readonly unknown[] {
  let copy: unknown[] | undefined;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    const fixed = fix(item);
    if (fixed !== item) {
      copy ??= items.slice();
      copy[index] = fixed;
    }
  }
  return copy ?? items;
}

function fixObject(object: Record<string, unknown>): Record<string, unknown> {
  // Buffers, typed arrays and other exotic objects never reach JSON as text fields.
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) return object;
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    const item = object[key];
    const fixed = fix(item);
    const fixedKey = fixString(key);
    if (fixed !== item || fixedKey !== key) {
      copy ??= { ...object };
      if (fixedKey !== key) delete copy[key];
      copy[fixedKey] = fixed;
    }
  }
  return copy ?? object;
}
