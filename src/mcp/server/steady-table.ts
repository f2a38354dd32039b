/**
 * Why these exist: on Node 20 (V8 11.3) deleting the last entry of a `Map` or `Set` shrinks its
 * hash table, which rebuilds it (`Runtime_MapShrink` / `Runtime_SetShrink`, ~400 instructions a
 * delete), and a table of requests in flight empties after every request of a sequential client
 * (callgrind, docs/performance.md "stdio per tools/call", sixth round). A table here keeps one
 * hidden entry, so its hash table never drops below the size where V8 shrinks it. The hidden entry
 * is always the first in insertion order and never visible: not counted, not iterated.
 */
const HOLD: unique symbol = Symbol('steady table hold');

/** A `Map` (the methods the toolkit's request tables use) that never shrinks its hash table. */
export class SteadyMap<K, V> {
  readonly #map = new Map<K | typeof HOLD, V | undefined>([[HOLD, undefined]]);

  /** Number of entries (the hidden one not counted). */
  get size(): number {
    return this.#map.size - 1;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  set(key: K, value: V): this {
    this.#map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
    this.#map.set(HOLD, undefined);
  }

  /** The values, in insertion order. */
  *values(): IterableIterator<V> {
    const values = this.#map.values();
    values.next(); // the hidden entry
    yield* values as IterableIterator<V>;
  }
}

/** A `Set` (the methods the toolkit's request tables use) that never shrinks its hash table. */
export class SteadySet<T> {
  readonly #set = new Set<T | typeof HOLD>([HOLD]);

  /** Number of members (the hidden one not counted). */
  get size(): number {
    return this.#set.size - 1;
  }

  has(value: T): boolean {
    return this.#set.has(value);
  }

  add(value: T): this {
    this.#set.add(value);
    return this;
  }

  delete(value: T): boolean {
    return this.#set.delete(value);
  }

  /** The members, in insertion order. */
  *[Symbol.iterator](): IterableIterator<T> {
    const members = this.#set.values();
    members.next(); // the hidden member
    yield* members as IterableIterator<T>;
  }
}
