/**
 * MiniSearch with smaller per-term records. MiniSearch keeps, for every term, a `Map` of field id to a
 * `Map` of document id to frequency: about 180 bytes per `Map` even with one entry. Most terms of a large
 * folder are in one document and one or two fields (numbers, names, codes): at 100,000 files, 300,000 such
 * `Map`s (docs/performance.md, W8). {@link SmallMap} keeps up to two entries in the object itself and
 * becomes a `Map` from the third on. Only the containers change: the radix tree, its order, the scores and
 * the results are MiniSearch's own (test/documents/compact-minisearch.test.ts compares both).
 */
import type MiniSearch from 'minisearch';

/**
 * The `Map` operations MiniSearch uses on a term's records (get, set, has, delete, size, keys, entries,
 * iteration), with up to two entries held inline. Insertion order is kept; an entry deleted during an
 * iteration is not visited afterwards, as with a `Map`.
 */
export class SmallMap<K, V> {
  #k0: K | undefined = undefined;
  #v0: V | undefined = undefined;
  #k1: K | undefined = undefined;
  #v1: V | undefined = undefined;
  /** Inline entries in use (0 to 2); unused once {@link #map} exists. */
  #count = 0;
  #map: Map<K, V> | undefined = undefined;

  get size(): number {
    return this.#map?.size ?? this.#count;
  }

  /** The inline slot of `key` (0 or 1), or -1. */
  #slot(key: K): number {
    if (this.#count > 0 && Object.is(this.#k0, key)) return 0;
    if (this.#count > 1 && Object.is(this.#k1, key)) return 1;
    return -1;
  }

  get(key: K): V | undefined {
    if (this.#map !== undefined) return this.#map.get(key);
    const slot = this.#slot(key);
    return slot === 0 ? this.#v0 : slot === 1 ? this.#v1 : undefined;
  }

  has(key: K): boolean {
    return this.#map !== undefined ? this.#map.has(key) : this.#slot(key) >= 0;
  }

  set(key: K, value: V): this {
    if (this.#map !== undefined) {
      this.#map.set(key, value);
      return this;
    }
    const slot = this.#slot(key);
    if (slot === 0) this.#v0 = value;
    else if (slot === 1) this.#v1 = value;
    else if (this.#count === 0) {
      this.#k0 = key;
      this.#v0 = value;
      this.#count = 1;
    } else if (this.#count === 1) {
      this.#k1 = key;
      this.#v1 = value;
      this.#count = 2;
    } else {
      this.#map = new Map<K, V>([
        [this.#k0 as K, this.#v0 as V],
        [this.#k1 as K, this.#v1 as V],
        [key, value],
      ]);
      this.#k0 = this.#v0 = this.#k1 = this.#v1 = undefined;
      this.#count = 0;
    }
    return this;
  }

  delete(key: K): boolean {
    if (this.#map !== undefined) return this.#map.delete(key);
    const slot = this.#slot(key);
    if (slot < 0) return false;
    if (slot === 0) {
      this.#k0 = this.#k1;
      this.#v0 = this.#v1;
    }
    this.#k1 = undefined;
    this.#v1 = undefined;
    this.#count -= 1;
    return true;
  }

  *entries(): IterableIterator<[K, V]> {
    if (this.#map !== undefined) {
      yield* this.#map.entries();
      return;
    }
    // The keys now; each is visited only if still present when its turn comes (deleted meanwhile: skipped).
    const keys = this.#count === 0 ? [] : this.#count === 1 ? [this.#k0 as K] : [this.#k0 as K, this.#k1 as K];
    for (const key of keys) if (this.has(key)) yield [key, this.get(key) as V];
  }

  *keys(): IterableIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }
}

/** What the subclass reaches of MiniSearch: its term tree (a protected member). */
interface TermIndex {
  _index: {
    fetch(
      term: string,
      initial: () => SmallMap<number, SmallMap<number, number>>,
    ): SmallMap<number, SmallMap<number, number>>;
  };
}

const subclasses = new WeakMap<typeof MiniSearch, typeof MiniSearch>();

/**
 * A subclass of `Base` whose term records are {@link SmallMap}s. It replaces MiniSearch's `addTerm` (a
 * private method of MiniSearch 7, the only place that creates those records); when a MiniSearch version
 * has no such method, `Base` itself is returned (the index is then larger, never wrong).
 */
export function compactMiniSearch(Base: typeof MiniSearch): typeof MiniSearch {
  const known = subclasses.get(Base);
  if (known !== undefined) return known;
  const original = (Base.prototype as unknown as { addTerm?: unknown }).addTerm;
  if (typeof original !== 'function' || original.length !== 3) return Base;
  const newTermRecord = () => new SmallMap<number, SmallMap<number, number>>();
  class CompactMiniSearch<T> extends Base<T> {}
  Object.defineProperty(CompactMiniSearch.prototype, 'addTerm', {
    value: function addTerm(this: TermIndex, fieldId: number, documentId: number, term: string): void {
      const record = this._index.fetch(term, newTermRecord);
      const frequencies = record.get(fieldId);
      if (frequencies === undefined) record.set(fieldId, new SmallMap<number, number>().set(documentId, 1));
      else frequencies.set(documentId, (frequencies.get(documentId) ?? 0) + 1);
    },
    writable: true,
    configurable: true,
  });
  subclasses.set(Base, CompactMiniSearch as unknown as typeof MiniSearch);
  return CompactMiniSearch as unknown as typeof MiniSearch;
}
