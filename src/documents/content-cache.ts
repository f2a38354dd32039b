/**
 * A least-recently-used map bounded by the total size of its values.
 */

/**
 * LRU cache whose budget is a byte count: each `set` states the value's cost in bytes, and the least
 * recently used entries are evicted until the total fits `maxBytes`. A value costing more than the whole
 * budget is not stored.
 */
export class ContentCache<V> {
  readonly #entries = new Map<string, { value: V; bytes: number }>();
  #totalBytes = 0;

  /** @param maxBytes budget in bytes (0 disables caching). */
  constructor(readonly maxBytes: number) {}

  /** Total cost in bytes of what is stored now. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Number of entries stored now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The value for `key` (marking it most recently used), or `undefined`. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` at a cost of `bytes`, replacing any previous value for `key`, then evicts down to budget. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.#entries.set(key, { value, bytes });
    this.#totalBytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#totalBytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#totalBytes -= entry.bytes;
    }
  }

  /** Removes `key` if present. */
  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#totalBytes -= entry.bytes;
  }

  /** Removes everything. */
  clear(): void {
    this.#entries.clear();
    this.#totalBytes = 0;
  }
}
