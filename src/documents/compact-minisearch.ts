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
  #map: MapLike<K, V> | undefined = undefined;

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
      this.#map = this.grow([
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

  /** What holds the entries from the third on (a `Map`; {@link Postings} for document frequencies). */
  protected grow(entries: Array<[K, V]>): MapLike<K, V> {
    return new Map(entries);
  }
}

/** The `Map` operations MiniSearch uses on a term's records. */
export interface MapLike<K, V> extends Iterable<[K, V]> {
  readonly size: number;
  get(key: K): V | undefined;
  has(key: K): boolean;
  set(key: K, value: V): this;
  delete(key: K): boolean;
  keys(): IterableIterator<K>;
  entries(): IterableIterator<[K, V]>;
}

/** A term's frequencies per document: two documents inline, then {@link Postings}. */
export class DocumentFrequencies extends SmallMap<number, number> {
  protected override grow(entries: Array<[number, number]>): MapLike<number, number> {
    const postings = new Postings();
    for (const [key, value] of entries) postings.set(key, value);
    return postings;
  }
}

/** Largest frequency and document id {@link Postings} keep in their array. */
const MAX_INT32 = 2 ** 31 - 1;

/**
 * Document id -> frequency for a term in many documents, as one `Int32Array` of (id, frequency) pairs in
 * insertion order (8 bytes an entry instead of about 36 in a `Map`; large ones live outside the JavaScript
 * heap). MiniSearch gives documents increasing ids and adds a document's terms before the next
 * document's, so entries come in ascending id order and a lookup is a binary search. A deleted entry is
 * marked (frequency 0) and skipped; marks are swept when more than half are marks, on the next addition
 * (never during an iteration, which only deletes). Anything else (an id lower than the last, a frequency
 * that is not a positive 32-bit integer, a deleted id added again) turns it into a `Map` of the same
 * entries in the same order, so it behaves as a `Map` in every case.
 */
export class Postings implements MapLike<number, number> {
  /** id, frequency, id, frequency, ... */
  #pairs = new Int32Array(8);
  /** Slots in use (entries and marks), and entries. */
  #length = 0;
  #live = 0;
  /** The slot the last lookup found (iterations look up the id they just visited). */
  #last = 0;
  #map: Map<number, number> | undefined = undefined;

  get size(): number {
    return this.#map?.size ?? this.#live;
  }

  /** The slot of `id` (an entry or a mark), or -1. */
  #find(id: number): number {
    const pairs = this.#pairs;
    if (this.#last < this.#length && pairs[2 * this.#last] === id) return this.#last;
    let low = 0;
    let high = this.#length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = pairs[2 * middle] as number;
      if (at === id) return (this.#last = middle);
      if (at < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  get(id: number): number | undefined {
    if (this.#map !== undefined) return this.#map.get(id);
    const slot = this.#find(id);
    const freq = slot < 0 ? 0 : (this.#pairs[2 * slot + 1] as number);
    return freq === 0 ? undefined : freq;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, freq: number): this {
    if (this.#map !== undefined) {
      this.#map.set(id, freq);
      return this;
    }
    const fits = Number.isInteger(freq) && freq > 0 && freq <= MAX_INT32;
    const slot = this.#find(id);
    if (slot >= 0 && this.#pairs[2 * slot + 1] !== 0 && fits) {
      this.#pairs[2 * slot + 1] = freq;
      return this;
    }
    const after = this.#length === 0 || id > (this.#pairs[2 * (this.#length - 1)] as number);
    if (slot >= 0 || !fits || !after || !Number.isInteger(id) || id < 0 || id > MAX_INT32) {
      const map = new Map(this.entries());
      map.set(id, freq);
      this.#map = map;
      this.#pairs = new Int32Array(0);
      return this;
    }
    if (this.#length - this.#live > this.#length / 2) this.#sweep();
    if (2 * this.#length === this.#pairs.length) this.#resize(this.#length * 2);
    this.#pairs[2 * this.#length] = id;
    this.#pairs[2 * this.#length + 1] = freq;
    this.#length += 1;
    this.#live += 1;
    return this;
  }

  delete(id: number): boolean {
    if (this.#map !== undefined) return this.#map.delete(id);
    const slot = this.#find(id);
    if (slot < 0 || this.#pairs[2 * slot + 1] === 0) return false;
    this.#pairs[2 * slot + 1] = 0;
    this.#live -= 1;
    return true;
  }

  *entries(): IterableIterator<[number, number]> {
    if (this.#map !== undefined) {
      yield* this.#map.entries();
      return;
    }
    // By slot, reading the array afresh each step: an entry deleted meanwhile is a mark, skipped.
    for (let slot = 0; slot < this.#length && this.#map === undefined; slot++) {
      const freq = this.#pairs[2 * slot + 1] as number;
      if (freq !== 0) {
        this.#last = slot;
        yield [this.#pairs[2 * slot] as number, freq];
      }
    }
  }

  *keys(): IterableIterator<number> {
    for (const [id] of this.entries()) yield id;
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  /** Drops the marks, keeping the order. */
  #sweep(): void {
    const pairs = this.#pairs;
    let kept = 0;
    for (let slot = 0; slot < this.#length; slot++) {
      const freq = pairs[2 * slot + 1] as number;
      if (freq === 0) continue;
      pairs[2 * kept] = pairs[2 * slot] as number;
      pairs[2 * kept + 1] = freq;
      kept += 1;
    }
    this.#length = this.#live = kept;
    this.#last = 0;
    if (2 * kept < pairs.length / 4) this.#resize(Math.max(4, kept * 2));
  }

  #resize(capacity: number): void {
    const pairs = new Int32Array(2 * capacity);
    pairs.set(this.#pairs.subarray(0, 2 * this.#length));
    this.#pairs = pairs;
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
      if (frequencies === undefined) record.set(fieldId, new DocumentFrequencies().set(documentId, 1));
      else frequencies.set(documentId, (frequencies.get(documentId) ?? 0) + 1);
    },
    writable: true,
    configurable: true,
  });
  subclasses.set(Base, CompactMiniSearch as unknown as typeof MiniSearch);
  return CompactMiniSearch as unknown as typeof MiniSearch;
}
