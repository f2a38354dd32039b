/**
 * Full-text search over the converted text of a store's documents (MiniSearch, in process). The index is
 * built on the first search (or at once, in the background) and kept current from the store's change events.
 */
import type MiniSearch from 'minisearch';
import type { SearchResult } from 'minisearch';
import { lazyRequire } from '../lazy-module.js';

// Loaded when the first index is built (the first search), not at import.
const loadMiniSearch = lazyRequire<typeof MiniSearch>('minisearch');
import { isTextMimeType } from '../converters/mime.js';
import type { DocumentStoreView } from './document-store.js';
import type { DocumentResource } from './document-types.js';
import { compactMiniSearch } from './compact-minisearch.js';
import { makeSnippet } from './snippet.js';
import { type Chunk, chunkOf, toChunks } from './search-chunks.js';
import { splitPages } from './text-pages.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from './search-limits.js';

/** Longest query term that gets prefix and typo matching, in characters. */
const MAX_FUZZY_TERM = 32;

/** Options of {@link DocumentSearchIndex}. */
export interface DocumentSearchIndexOptions {
  /** Documents read in parallel while (re)indexing. Default 4. */
  concurrency?: number;
  /**
   * Build the index now, in the background, and apply the store's changes as they come (a tick after
   * each change event) instead of just before the next search. The work stops when the store closes or
   * {@link DocumentSearchIndex.close} is called: no document is read after that, and reads under way stop
   * before converting (none starts a conversion process). Default `false` (nothing is read until the first search).
   */
  background?: boolean;
}

/** Options of one {@link DocumentSearchIndex.search}. */
export interface DocumentSearchOptions {
  /** Maximum number of documents returned (1 to 50, default 10). */
  limit?: number;
  /** Aborts the search (and the indexing it waits for; what is indexed so far is kept). */
  signal?: AbortSignal;
  /**
   * Longest wait (ms) for the index to catch up with the store; past it the search answers from what
   * is indexed and `pendingDocuments` says how many documents it did not cover (the indexing goes on).
   * Default: wait until the index is current.
   */
  maxWaitMs?: number;
}

/** One matching document. */
export interface DocumentSearchHit {
  uri: string;
  name: string;
  title?: string;
  mimeType: string;
  /** Relevance (BM25+, higher is better; only comparable within one search), rounded to 3 decimals. */
  score: number;
  /** Paged documents (converted PDFs): the best-matching page, the one the snippet comes from. */
  page?: number;
  /** Paged documents: every page that matched, ascending. */
  pages?: number[];
  /** About 160 characters around the first occurrence of a matched term (whitespace collapsed, `…` where cut). */
  snippet: string;
  /** The words of the document that matched (lower case; prefix and fuzzy matches included). */
  matchedTerms: string[];
}

/** What {@link DocumentSearchIndex.search} returns. */
export interface DocumentSearchResults {
  query: string;
  /** Best first, at most `limit`. */
  hits: DocumentSearchHit[];
  /** Number of documents that matched (may exceed `hits.length`). */
  totalMatches: number;
  /** Documents whose text is in the index. */
  indexedDocuments: number;
  /** Documents with text that could not be read (conversion failed, too large, vanished): not searchable. */
  unreadableDocuments: number;
  /**
   * Documents not in the index yet (being indexed, or changed since it was built): 0 unless
   * `maxWaitMs` ran out first. Searching again later covers them.
   */
  pendingDocuments: number;
}

/** One matching chunk of a document of several chunks: its score, place in MiniSearch's order, page and terms. */
interface ChunkMatch {
  score: number;
  position: number;
  page: number | undefined;
  terms: string[];
}

/** The best match of one document in a search: its best chunk's score and page, every page and term that matched. */
interface Match {
  uri: string;
  score: number;
  page: number | undefined;
  pages: number[];
  terms: string[];
}

/** What is indexed for one URI; `resource` is the store's entry that was indexed (identity tells replacement). */
interface IndexedDocument {
  resource: DocumentResource;
  /** The ids of its chunks; one id alone as a string (most documents: no array per document). */
  chunkIds: string | readonly string[];
  unreadable: boolean;
}

/** The chunk ids of an indexed document. */
function idsOf(doc: IndexedDocument): readonly string[] {
  return typeof doc.chunkIds === 'string' ? [doc.chunkIds] : doc.chunkIds;
}

/**
 * A search index over a {@link DocumentStore}. Nothing is read until the first {@link search}, which reads
 * (through the store: a cached conversion is used, but what it reads is not kept in the cache) every
 * document whose announced type is text (PDF and DOCX included; images and other blobs are skipped). From then on it listens to the store: a
 * `list_changed` makes the next search index added documents, drop removed ones and re-read replaced
 * ones; an `updated` makes it re-read that document. Only what changed is read again, just before the
 * next search runs. With `background: true` it builds at once instead and applies changes as they come,
 * without blocking the event loop for long (reads are asynchronous, documents are added one at a time); a
 * search with `maxWaitMs` answers from what is indexed when the build takes longer, and says how many
 * documents it did not cover (`pendingDocuments`). Searches are prefix-aware (terms of 3+ characters), tolerate small typos (terms of
 * 5+ characters) and rank documents matching more of the query words higher.
 */
export class DocumentSearchIndex {
  readonly #store: DocumentStoreView;
  readonly #concurrency: number;
  #miniSearch: MiniSearch<Chunk> | undefined;
  readonly #docs = new Map<string, IndexedDocument>();
  readonly #stale = new Set<string>();
  #listDirty = true;
  #unsubscribe: (() => void) | undefined;
  #running: Promise<void> | undefined;
  /** The documents the running refresh has still to index, and how many it is indexing now. */
  #queue: string[] = [];
  #indexing = 0;
  /** With `background`: true until closed; the pending background refresh, if any. */
  #background: boolean;
  #backgroundTimer: NodeJS.Timeout | undefined;
  readonly #backgroundStop = new AbortController();
  /**
   * Aborted, and replaced by a fresh one, when the store closes or {@link close} is called: every refresh asked
   * for before that stops with it, a search's too (its call may have answered at `maxWaitMs` and left the
   * refresh running), while a refresh asked for later runs as usual.
   */
  #lifetime = new AbortController();

  constructor(store: DocumentStoreView, options: DocumentSearchIndexOptions = {}) {
    this.#store = store;
    this.#concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
    this.#background = options.background === true;
    if (this.#background) {
      this.#listen();
      this.#refreshSoon();
    }
  }

  /** The MiniSearch index, created (and the library loaded) on first use. */
  get #mini(): MiniSearch<Chunk> {
    // Smaller records for terms seen in one or two documents (most terms of a large folder).
    const MiniSearchClass = compactMiniSearch(loadMiniSearch());
    return (this.#miniSearch ??= new MiniSearchClass<Chunk>({
      // No storeFields: a chunk's URI and page are read back from its id (see chunkOf), which MiniSearch
      // keeps anyway (storing them again cost an object per chunk).
      fields: ['name', 'text'],
      searchOptions: {
        boost: { name: 2 },
        prefix: (term) => term.length >= 3 && term.length <= MAX_FUZZY_TERM,
        // Typo tolerance is bounded: at most 2 edits, and none for very long terms, whose fuzzy
        // matching would cost memory and time growing with the square of their length.
        fuzzy: (term) =>
          term.length >= 5 && term.length <= MAX_FUZZY_TERM ? Math.min(2, Math.round(term.length * 0.2)) : false,
        combineWith: 'OR',
      },
    }));
  }

  /**
   * Searches the documents' text and names for `query` (words; case-insensitive). Brings the index up to
   * date first. Results are grouped per document, best first.
   * @throws the signal's reason when `options.signal` aborts
   */
  async search(query: string, options: DocumentSearchOptions = {}): Promise<DocumentSearchResults> {
    const limit = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(options.limit ?? DEFAULT_SEARCH_LIMIT)));
    await this.#catchUp(options.signal, options.maxWaitMs);
    // The counts describe the index the matches came from: taken before the awaits below, during
    // which background indexing goes on (a later `pendingDocuments: 0` would claim a full search).
    // No copies of the document map, nothing allocated per document.
    let indexedDocuments = 0;
    let unreadableDocuments = 0;
    for (const doc of this.#docs.values()) {
      if (typeof doc.chunkIds === 'string' || doc.chunkIds.length > 0) indexedDocuments += 1;
      if (doc.unreadable) unreadableDocuments += 1;
    }
    const coverage = { indexedDocuments, unreadableDocuments, pendingDocuments: this.#pending() };
    const found = this.#matches(query);
    const hits: DocumentSearchHit[] = [];
    for (const match of found.ranked()) {
      if (hits.length >= limit) break;
      options.signal?.throwIfAborted();
      const terms = [...new Set(match.terms)];
      const hit = await this.#hit(match.uri, match.page, terms, options.signal);
      if (hit === undefined) continue;
      hits.push({
        ...hit,
        score: Math.round(match.score * 1000) / 1000,
        ...(match.pages.length > 0 ? { pages: [...new Set(match.pages)].sort((a, b) => a - b) } : {}),
        matchedTerms: terms.sort(),
      });
    }
    return { query, hits, totalMatches: found.count, ...coverage };
  }

  /**
   * MiniSearch's matches grouped per document, read in one pass in MiniSearch's own order (its `filter`
   * sees each match; none is kept, so it builds and sorts no result list). A document of one chunk (most)
   * costs a slot in four arrays; only documents of several chunks get a record of their chunks. The
   * ranking is the one grouping MiniSearch's sorted list would give: best chunk's score first, ties in
   * the order of those chunks in MiniSearch's list (its sort is stable), terms in that order. A search
   * over 100,000 documents may match 40,000 of them, and clients poll while the index builds.
   */
  #matches(query: string): { count: number; ranked(): Iterable<Match> } {
    const uris: string[] = [];
    const scores: number[] = [];
    const positions: number[] = [];
    const termsOf: string[][] = [];
    /** Documents of several chunks: their slot, and every matching chunk. */
    const slotOf = new Map<string, number>();
    const chunksOf = new Map<number, ChunkMatch[]>();
    let position = 0;
    const visit = (result: SearchResult): false => {
      const id = result.id as string;
      const doc = this.#docs.get(id);
      const at = position++;
      if (doc !== undefined && typeof doc.chunkIds === 'string') {
        uris.push(id);
        scores.push(result.score);
        positions.push(at);
        termsOf.push(result.terms);
        return false;
      }
      const { uri, page } = doc !== undefined ? { uri: id, page: undefined } : chunkOf(id);
      let slot = slotOf.get(uri);
      if (slot === undefined) {
        slot = uris.push(uri) - 1;
        scores.push(result.score);
        positions.push(at);
        termsOf.push([]);
        slotOf.set(uri, slot);
        chunksOf.set(slot, []);
      } else if (result.score > (scores[slot] as number)) {
        scores[slot] = result.score;
        positions[slot] = at;
      }
      chunksOf.get(slot)?.push({ score: result.score, position: at, page, terms: result.terms });
      return false;
    };
    this.#mini.search(query, { filter: visit });
    const match = (slot: number): Match => {
      const uri = uris[slot] as string;
      const score = scores[slot] as number;
      const chunks = chunksOf.get(slot);
      if (chunks === undefined) return { uri, score, page: undefined, pages: [], terms: termsOf[slot] as string[] };
      chunks.sort((a, b) => b.score - a.score || a.position - b.position);
      const pages = chunks.flatMap((chunk) => (chunk.page === undefined ? [] : [chunk.page]));
      return { uri, score, page: chunks[0]?.page, pages, terms: chunks.flatMap((chunk) => chunk.terms) };
    };
    return {
      count: uris.length,
      *ranked() {
        const order = Array.from(uris, (_, slot) => slot);
        order.sort(
          (a, b) =>
            (scores[b] as number) - (scores[a] as number) || (positions[a] as number) - (positions[b] as number),
        );
        for (const slot of order) yield match(slot);
      },
    };
  }

  /** Refreshes, waiting at most `maxWaitMs` (the refresh goes on past it); a failure within the wait is thrown. */
  async #catchUp(signal: AbortSignal | undefined, maxWaitMs: number | undefined): Promise<void> {
    const refreshed = this.refresh(signal);
    if (maxWaitMs === undefined) return refreshed;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, maxWaitMs))));
    refreshed.catch(() => undefined); // past the wait, a failure is the next search's to see
    try {
      await Promise.race([refreshed, waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Documents the index does not cover yet: queued, being indexed, marked stale, or not compared since a list change. */
  #pending(): number {
    let pending = this.#queue.length + this.#indexing + this.#stale.size;
    if (this.#listDirty) {
      for (const resource of this.#store.list()) {
        const doc = this.#docs.get(resource.uri);
        if ((doc === undefined || doc.resource !== resource) && !this.#stale.has(resource.uri)) pending += 1;
      }
    }
    return pending;
  }

  /** Subscribes to the store's changes (once); with `background`, each change schedules a refresh. */
  #listen(): void {
    this.#unsubscribe ??= this.#store.onChange(
      (event) => {
        if (event.type === 'list_changed') this.#listDirty = true;
        else this.#stale.add(event.uri);
        this.#refreshSoon();
      },
      { onClose: () => this.#stopBackground() },
    );
  }

  /** With `background`: one refresh on the next turn of the event loop (coalescing a burst of events). */
  #refreshSoon(): void {
    if (!this.#background || this.#backgroundTimer !== undefined) return;
    this.#backgroundTimer = setTimeout(() => {
      this.#backgroundTimer = undefined;
      if (this.#background) this.refresh(this.#backgroundStop.signal).catch(() => undefined);
    }, 0);
    this.#backgroundTimer.unref();
  }

  /** Ends background work: no more scheduled refreshes, and the running background one stops. */
  #stopBackground(): void {
    this.#background = false;
    clearTimeout(this.#backgroundTimer);
    this.#backgroundTimer = undefined;
    this.#backgroundStop.abort();
    this.#lifetime.abort();
    this.#lifetime = new AbortController();
  }

  /**
   * Brings the index up to date with the store (called by {@link search}; call it yourself to build the
   * index ahead of the first search). Concurrent calls share the work.
   */
  async refresh(signal?: AbortSignal): Promise<void> {
    const lifetime = this.#lifetime.signal;
    while (this.#running !== undefined) await this.#running.catch(() => undefined);
    // The store closed (or the index) while this waited: what it asked for ended with it.
    if (lifetime.aborted || (!this.#listDirty && this.#stale.size === 0)) return;
    const stop = eitherAborts(signal, lifetime);
    this.#running = this.#refreshOnce(stop.signal);
    try {
      await this.#running;
      signal?.throwIfAborted();
    } finally {
      this.#running = undefined;
      stop.dispose();
    }
  }

  /** Stops listening to the store and empties the index (a later search builds it again). */
  close(): void {
    this.#stopBackground();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#mini.removeAll();
    this.#docs.clear();
    this.#stale.clear();
    this.#listDirty = true;
  }

  async #refreshOnce(signal: AbortSignal | undefined): Promise<void> {
    this.#listen();
    if (this.#listDirty) {
      this.#listDirty = false;
      const current = new Map(this.#store.list().map((resource) => [resource.uri, resource]));
      for (const [uri, doc] of this.#docs) {
        if (current.get(uri) === doc.resource) continue;
        this.#remove(uri);
        if (current.has(uri)) this.#stale.add(uri);
      }
      for (const uri of current.keys()) if (!this.#docs.has(uri)) this.#stale.add(uri);
    }
    const queue = (this.#queue = [...this.#stale].reverse());
    this.#stale.clear();
    const worker = async (): Promise<void> => {
      for (let uri = queue.pop(); uri !== undefined; uri = queue.pop()) {
        if (signal?.aborted) {
          this.#stale.add(uri);
          continue;
        }
        this.#indexing += 1;
        try {
          await this.#index(uri, signal);
        } finally {
          this.#indexing -= 1;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#concurrency, queue.length) }, worker));
  }

  /**
   * (Re)indexes one document from the store's current entry; unreadable text is recorded, not thrown. When
   * `signal` aborts during the read (the background build stopping: the store closed, or {@link close}), the
   * read starts no conversion and the document is left for the next refresh.
   */
  async #index(uri: string, signal: AbortSignal | undefined): Promise<void> {
    this.#remove(uri);
    const resource = this.#store.get(uri);
    if (resource === undefined) return;
    let text: string | undefined;
    let unreadable = false;
    if (isTextMimeType(resource.mimeType)) {
      try {
        const [content] = await this.#store.readFull(uri, { cache: false, signal });
        if (content !== undefined && 'text' in content) text = content.text;
      } catch {
        if (signal?.aborted === true) return void this.#stale.add(uri); // not unreadable: not read
        unreadable = true;
      }
    }
    const chunkIds: string[] = [];
    if (text !== undefined) {
      for (const chunk of toChunks(resource, text)) {
        this.#mini.add(chunk);
        chunkIds.push(chunk.id);
      }
    }
    this.#docs.set(uri, { resource, chunkIds: chunkIds.length === 1 ? (chunkIds[0] as string) : chunkIds, unreadable });
  }

  #remove(uri: string): void {
    const doc = this.#docs.get(uri);
    if (doc === undefined) return;
    for (const id of idsOf(doc)) this.#mini.discard(id);
    this.#docs.delete(uri);
  }

  /**
   * The listed fields and snippet of a match, read now; `undefined` when the document is gone or unreadable.
   * @throws the signal's reason when `signal` aborts (the read starts no conversion then)
   */
  async #hit(
    uri: string,
    page: number | undefined,
    terms: readonly string[],
    signal: AbortSignal | undefined,
  ): Promise<Omit<DocumentSearchHit, 'score' | 'pages' | 'matchedTerms'> | undefined> {
    const resource = this.#store.get(uri);
    if (resource === undefined) return undefined;
    let text: string;
    try {
      const [content] = await this.#store.readFull(uri, { signal });
      if (content === undefined || !('text' in content)) return undefined;
      text = content.text;
    } catch (error) {
      if (signal?.aborted === true) throw error;
      this.#stale.add(uri);
      return undefined;
    }
    const region = page === undefined ? undefined : splitPages(text)?.find((candidate) => candidate.number === page);
    const snippet = makeSnippet(text, terms, region?.bodyStart ?? 0, region?.end ?? text.length);
    const { name, title, mimeType } = resource;
    return {
      uri,
      name,
      ...(title === undefined ? {} : { title }),
      mimeType,
      ...(page === undefined ? {} : { page }),
      snippet,
    };
  }
}

/** A signal aborted when `signal` (if any) or `lifetime` is; `dispose` drops the listeners it added. */
function eitherAborts(
  signal: AbortSignal | undefined,
  lifetime: AbortSignal,
): { signal: AbortSignal; dispose(): void } {
  if (signal === undefined) return { signal: lifetime, dispose: () => {} };
  const either = new AbortController();
  const abort = () => either.abort();
  if (signal.aborted) abort();
  signal.addEventListener('abort', abort, { once: true });
  lifetime.addEventListener('abort', abort, { once: true });
  return {
    signal: either.signal,
    dispose: () => {
      signal.removeEventListener('abort', abort);
      lifetime.removeEventListener('abort', abort);
    },
  };
}
