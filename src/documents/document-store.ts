/**
 * The registry of documents exposed as MCP resources: registration (files, folders), listing,
 * lazy reads through converters, change events and optional watching.
 */
import { checkDocumentStoreOptions, documentConfig } from './document-options.js';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ConverterRegistry, createDefaultConverters } from '../converters/converter-registry.js';
import { ConversionPool } from '../converters/pool/conversion-pool.js';
import { DocumentNotFoundError, InvalidPathError } from '../errors.js';
import { normalizeUri } from '../resources/uri-normalization.js';
import type { FileDocumentConfig, FolderDocumentConfig } from './document-config.js';
import { makeStoredDocument } from './document-entry.js';
import type { ReadContext } from './document-reader.js';
import type {
  DocumentChangeEvent,
  DocumentChangeListener,
  DocumentReadContents,
  DocumentResource,
  DocumentSkipListener,
  DocumentUriGuard,
  SkippedDocument,
  StoredDocument,
} from './document-types.js';
import { DeferredWatcher } from './deferred-watcher.js';
import { type ExtensionFilter, scanFolder, type ScannedFile, type ScanOptions } from './folder-scan.js';
import { normalizeExtensions, statOrUndefined, tildeExpansion } from './path-policy.js';
import { loadOnce } from '../lazy-module.js';

export type {
  DocumentChangeEvent,
  DocumentChangeListener,
  DocumentReadContents,
  DocumentResource,
  DocumentSkipListener,
  DocumentUriGuard,
  SkippedDocument,
} from './document-types.js';

/** The read path (`read-path.ts`, a `dist/lazy/` entry), loaded with a store's first read: one shared load per process. */
const loadReadPath = loadOnce(() => import('./read-path.js'));

/**
 * The read side of a {@link DocumentStore}, as `server.documents` exposes it: listing, lookup,
 * reads, change events and the converters. Registration goes through the server
 * (`registerDocument`, `registerFolder`), which checks URIs against its other resources.
 */
export type DocumentStoreView = Pick<
  DocumentStore,
  | 'converters'
  | 'maxFileSizeBytes'
  | 'maxReadChars'
  | 'list'
  | 'folderRoots'
  | 'get'
  | 'read'
  | 'readFull'
  | 'onChange'
  | 'watchReady'
  | 'skipped'
  | 'onSkip'
>;

/** Default most characters of text one read returns: 100,000 (about 25,000 tokens). */
export const DEFAULT_MAX_READ_CHARS = 100_000;
/** Default per-file read limit: 20 MiB. */
export const DEFAULT_MAX_FILE_SIZE_BYTES = 20 * 1024 * 1024;
/** Default budget of the converted-content cache: 64 MiB. */
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** Default quiet time before watched disk events are reported: 100 ms. */
export const DEFAULT_WATCH_DEBOUNCE_MS = 100;
/** Default longest delay of a watched change under a steady stream of events: 1,000 ms. */
export const DEFAULT_WATCH_MAX_WAIT_MS = 1000;

/** Options of {@link DocumentStore}. */
export interface DocumentStoreOptions {
  /** Converters used for reads (default: `createDefaultConverters()`). Add custom ones before registering documents. */
  converters?: ConverterRegistry;
  /**
   * Reads of larger files fail with `RESOURCE_TOO_LARGE`; folder scans leave them out and report each
   * once (see {@link DocumentStore.onSkip}) (bytes, default 20 MiB).
   */
  maxFileSizeBytes?: number;
  /** Budget of the LRU cache of converted content (bytes, default 64 MiB; 0 disables it). */
  cacheMaxBytes?: number;
  /**
   * Watch registered files and folders: `updated` on edits, folder rescans (+`list_changed`) on add/remove.
   * Default true (as the CLI, whose folders are live unless `--no-watch`); a watcher never keeps the
   * process alive on its own. Costs one inotify watch per folder (see docs/documents.md for memory).
   */
  watch?: boolean;
  /**
   * With `watch`: quiet time in ms before a burst of disk events is reported, per file (`updated`) and per
   * folder (rescan). An editor's save (several writes in a row) then gives one event. Default 100.
   */
  watchDebounceMs?: number;
  /**
   * With `watch`: the longest a change waits while events keep coming (ms, default 1,000). Under a steady
   * stream of changes (files renamed every few ms) clients are still told at least this often, once per batch.
   */
  watchMaxWaitMs?: number;
  /** Most characters of text one `read` (`resources/read`) returns; see {@link DocumentStore.read} (default 100,000). */
  maxReadChars?: number;
  /** Wall time of one conversion in ms (default 30,000); over it the worker is terminated: `CONVERSION_LIMIT` `time`. */
  conversionTimeoutMs?: number;
  /**
   * Heap of each conversion process in MiB (`--max-old-space-size`, default 512, > 0 and at most 1,048,576):
   * `heap`. A conversion that exhausts it ends its own process, never the server's.
   */
  conversionHeapMb?: number;
  /**
   * Most characters a conversion may produce beyond its file's size in bytes (default 10,000,000):
   * `output`. A conversion may always produce as many characters as its file has bytes, so every file the
   * `maxFileSizeBytes` limit admits stays readable (a 19 MiB text file reads in parts).
   */
  maxOutputChars?: number;
  /**
   * Most bytes an archive (DOCX) may inflate to, declared or actual (default 100 MiB): `inflated`. A
   * decompression bomb is refused before it is inflated.
   */
  maxInflatedBytes?: number;
  /** Conversion processes running at once (default 2, 1 on a machine with 1 or 2 cores). */
  conversionThreads?: number;
}

/** A folder registration kept for rescans. */
interface FolderRegistration {
  config: FolderDocumentConfig;
  scan: ScanOptions;
}

/**
 * Registered documents. Registration is synchronous and reads no content; `read` reads the file at call time
 * (so edits on disk are seen), converts it and caches the result by path + size + mtime.
 */
export class DocumentStore {
  /** The converters used by `read`; `store.converters.register(myConverter)` overrides a built-in one. */
  readonly converters: ConverterRegistry;
  /** Default per-file read limit in bytes. */
  readonly maxFileSizeBytes: number;
  /** Most characters of text one {@link read} returns. */
  readonly maxReadChars: number;
  /** Runs the converters under the conversion limits (child processes for PDF, DOCX, HTML). */
  readonly conversions: ConversionPool;
  readonly #docs = new Map<string, StoredDocument>();
  readonly #folders = new Map<string, FolderRegistration>();
  readonly #listeners = new Set<DocumentChangeListener>();
  /** Per listener, what to run when {@link close} drops it. */
  readonly #onClose = new Map<DocumentChangeListener, () => void>();
  readonly #guards = new Set<DocumentUriGuard>();
  readonly #skipListeners = new Set<DocumentSkipListener>();
  /** Files left out for their size, by path: each is reported once, until it is admitted or gone. */
  readonly #skipped = new Map<string, SkippedDocument>();
  readonly #cacheMaxBytes: number;
  /** Made by the first read, with the read path's module (`read-path.ts`): listing and registering never load it. */
  #read: ReadContext | undefined;
  readonly #watcher: DeferredWatcher | undefined;
  #list: readonly DocumentResource[] | undefined;
  /** Files a rescan just added, by path, with their size and mtime then (see {@link #fileChanged}). */
  readonly #added = new Map<string, string>();

  /**
   * @throws InvalidOptionsError when `options` has a key {@link DocumentStoreOptions} does not define, or
   *   a value of the wrong type or range (a limit that is not a positive number, a non-boolean `watch`).
   */
  constructor(options: DocumentStoreOptions = {}) {
    checkDocumentStoreOptions(options);
    this.converters = options.converters ?? createDefaultConverters();
    this.maxFileSizeBytes = options.maxFileSizeBytes ?? DEFAULT_MAX_FILE_SIZE_BYTES;
    this.maxReadChars = Math.floor(options.maxReadChars ?? DEFAULT_MAX_READ_CHARS);
    this.conversions = new ConversionPool({
      threads: options.conversionThreads,
      timeoutMs: options.conversionTimeoutMs,
      heapMb: options.conversionHeapMb,
      maxOutputChars: options.maxOutputChars,
      maxInflatedBytes: options.maxInflatedBytes,
    });
    this.#cacheMaxBytes = options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.#watcher =
      (options.watch ?? true)
        ? new DeferredWatcher(
            {
              fileChanged: (file) => this.#fileChanged(file),
              folderChanged: (root) => this.#rescan(root),
            },
            options.watchDebounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS,
            options.watchMaxWaitMs ?? DEFAULT_WATCH_MAX_WAIT_MS,
          )
        : undefined;
  }

  /**
   * Registers one file. Name defaults to the basename. Re-registering the same path replaces the entry.
   * Emits one `list_changed`.
   * @throws InvalidPathError `NOT_A_FILE` when the path is missing or not a regular file (directories included)
   * @throws InvalidOptionsError when the argument is neither a path nor a config with `path` (a `URL` included), or the
   *   config has a key {@link FileDocumentConfig} does not define or a value of the wrong type
   */
  registerDocument(pathOrConfig: string | FileDocumentConfig): DocumentResource {
    const config = documentConfig('registerDocument', pathOrConfig);
    const absolute = path.resolve(String(config.path ?? ''));
    const stats = config.path ? statOrUndefined(absolute) : undefined;
    if (!stats?.isFile()) {
      const why = !config.path ? 'the path is empty' : stats === undefined ? 'no such file' : 'not a regular file';
      const hint = stats?.isDirectory() ? ' (it is a directory: use registerFolder)' : tildeHint(config.path, stats);
      throw new InvalidPathError('NOT_A_FILE', absolute, `Cannot register document ${absolute}: ${why}${hint}`);
    }
    const doc = makeStoredDocument(
      {
        path: absolute,
        name: config.name ?? path.basename(absolute),
        title: config.title,
        description: config.description,
        mimeType: config.mimeType,
        size: stats.size,
        maxFileSizeBytes: this.maxFileSizeBytes,
      },
      this.converters,
    );
    this.#admit([doc]);
    this.#put([doc]);
    this.#watcher?.watchFile(absolute);
    return doc.resource;
  }

  /**
   * Registers every matching file under a folder (recursive), each named by its path relative to the folder.
   * Returns the registered entries (sorted by name). Emits one `list_changed` for the batch, none when nothing matched.
   * @throws InvalidPathError `NOT_A_DIRECTORY` when the path is missing or not a directory
   * @throws InvalidOptionsError when the argument is neither a path nor a config with `path` (a `URL` included), or the
   *   config has a key {@link FolderDocumentConfig} does not define, or a value of the
   *   wrong type or range (`extensions: 'md'` instead of `['md']`, a negative `maxFileSizeBytes`)
   */
  registerFolder(pathOrConfig: string | FolderDocumentConfig): DocumentResource[] {
    const config = documentConfig('registerFolder', pathOrConfig);
    const root = path.resolve(String(config.path ?? ''));
    const stats = config.path ? statOrUndefined(root) : undefined;
    if (!stats?.isDirectory()) {
      const why = !config.path ? 'the path is empty' : stats === undefined ? 'no such directory' : 'not a directory';
      throw new InvalidPathError(
        'NOT_A_DIRECTORY',
        root,
        `Cannot register folder ${root}: ${why}${tildeHint(config.path, stats)}`,
      );
    }
    const extensions = normalizeExtensions(config.extensions ?? []);
    const registration: FolderRegistration = {
      config,
      scan: {
        extensions: extensions.length > 0 ? new Set(extensions) : this.#supportedExtensions(),
        ignore: config.ignore ?? [],
        followSymlinks: config.followSymlinks ?? false,
        maxFileSizeBytes: config.maxFileSizeBytes ?? this.maxFileSizeBytes,
      },
    };
    const docs = this.#scan(root, registration);
    this.#admit(docs);
    this.#folders.set(root, registration);
    if (docs.length > 0) this.#put(docs);
    this.#watcher?.watchFolder(root);
    return docs.map((doc) => doc.resource);
  }

  /**
   * The default filter: what the converters support, asked one extension at a time (a common one needs
   * no MIME database, bench W0 CLI); a converter registry of another make is asked for its whole list.
   */
  #supportedExtensions(): ExtensionFilter {
    const { converters } = this;
    if (typeof converters.supportsExtension === 'function') return { has: (ext) => converters.supportsExtension(ext) };
    return new Set(converters.supportedExtensions());
  }

  /** The absolute paths of the registered folders, in registration order (a folder with no matching file too). */
  folderRoots(): readonly string[] {
    return [...this.#folders.keys()];
  }

  /** Every registered resource in registration order. The same frozen array is returned until something changes. */
  list(): readonly DocumentResource[] {
    this.#list ??= Object.freeze([...this.#docs.values()].map((doc) => doc.resource));
    return this.#list;
  }

  /** The resource with this URI (exact, or equal once normalized through its file path), or `undefined`. */
  get(uri: string): DocumentResource | undefined {
    return this.#lookup(uri)?.resource;
  }

  /**
   * Reads a resource now (see `readDocument`): one content item, text or base64 blob. Text longer than
   * {@link maxReadChars} is cut there and ends with a note naming the URI of the next piece; a URI with an
   * RFC 5147 fragment (`<uri>#char=START,END`) reads that piece (at most `maxReadChars`). A cut answer
   * carries `_meta["mcp-toolkit/range"]` = `{ offset, length, totalChars, next? }`.
   * @throws DocumentNotFoundError unknown URI, or the file vanished
   * @throws InvalidPathError `PATH_OUTSIDE_ROOT` when a folder entry now resolves outside its folder
   * @throws DocumentReadError `RESOURCE_TOO_LARGE`, `CONVERSION_FAILED`, or `CONVERSION_LIMIT`
   *   (`ConversionLimitError`: time, heap or output limit; remembered until the file changes)
   * @throws UserError a malformed `#char=` fragment or one starting past the end of the text
   */
  async read(uri: string): Promise<DocumentReadContents> {
    const { parseCharFragment, windowContents } = await loadReadPath();
    parseCharFragment(uri);
    return windowContents(await this.readFull(uri), uri, this.maxReadChars);
  }

  /**
   * Like {@link read} but the whole converted content, whatever its length: for in-process consumers that
   * select their own part (the `read_document` tool, the search index). A `#fragment` on the URI is ignored.
   * With `cache: false` a conversion is not kept in the content cache (a cached one is still used): the
   * search index reads every document once, which would evict what clients read. Once `signal` aborts the
   * read stops where it is and starts no conversion (one already running goes on for other readers).
   * @throws the errors of {@link read} except `UserError`
   * @throws the signal's reason when `options.signal` aborts before the read is done
   */
  async readFull(uri: string, options: { cache?: boolean; signal?: AbortSignal } = {}): Promise<DocumentReadContents> {
    const { signal } = options;
    signal?.throwIfAborted();
    const doc = this.#lookup(uri);
    if (doc === undefined) throw new DocumentNotFoundError(uri);
    const { createReadContext, readDocument } = await loadReadPath();
    signal?.throwIfAborted();
    this.#read ??= createReadContext(this.converters, this.conversions, this.#cacheMaxBytes);
    return readDocument(doc, this.#read, options.cache !== false, signal);
  }

  /**
   * Subscribes to changes; returns the unsubscribe function. Listeners run synchronously; their exceptions are
   * ignored. `options.onClose` runs once when {@link close} drops the listener (background work built on the
   * events stops there).
   */
  onChange(listener: DocumentChangeListener, options: { onClose?: () => void } = {}): () => void {
    this.#listeners.add(listener);
    if (options.onClose !== undefined) this.#onClose.set(listener, options.onClose);
    return () => {
      this.#listeners.delete(listener);
      this.#onClose.delete(listener);
    };
  }

  /**
   * The files folder scans leave out for their size (over `maxFileSizeBytes`, the folder's or the
   * store's), sorted by path. An entry stays while the file is still too large; it goes once the file
   * shrinks under the limit (and is registered), is removed, or its folder is rescanned without it.
   */
  skipped(): SkippedDocument[] {
    return [...this.#skipped.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * Subscribes to files left out for their size: the listener hears each such file once, when a scan
   * (registration or a watcher's rescan) first finds it too large. Returns the unsubscribe function.
   * Listeners run synchronously; their exceptions are ignored.
   */
  onSkip(listener: DocumentSkipListener): () => void {
    this.#skipListeners.add(listener);
    return () => this.#skipListeners.delete(listener);
  }

  /**
   * Adds a check every new URI must pass (the server's URI resolver uses it so a file never
   * shadows, or is shadowed by, another kind of resource). `registerDocument` / `registerFolder`
   * throw the guard's error and register nothing; a file the watcher finds later is left out
   * and reported to `guard.skipped`. Returns the remover.
   */
  addUriGuard(guard: DocumentUriGuard): () => void {
    this.#guards.add(guard);
    return () => this.#guards.delete(guard);
  }

  /** With `watch: true`: resolves once every watcher has done its initial scan. Resolves at once otherwise. */
  async watchReady(): Promise<void> {
    await this.#watcher?.ready();
  }

  /**
   * Stops watchers, ends the conversion workers (a conversion running now fails) and drops the cache,
   * the remembered failures and the listeners. Afterwards nothing of the store keeps the process alive.
   * Registered entries stay readable (a later conversion starts new workers). Idempotent.
   */
  async close(): Promise<void> {
    this.#listeners.clear();
    const onClose = [...this.#onClose.values()];
    this.#onClose.clear();
    for (const callback of onClose) {
      try {
        callback();
      } catch {
        // A failing callback must not stop the others or the close.
      }
    }
    this.#skipListeners.clear();
    this.#read?.cache.clear();
    this.#read?.failures.clear();
    await Promise.all([this.#watcher?.close(), this.conversions.close()]);
  }

  #lookup(uri: string): StoredDocument | undefined {
    const exact = this.#docs.get(uri);
    if (exact !== undefined) return exact;
    // Equivalent spellings (RFC 3986 section 6.2.2: scheme case, %-encoding) name the same file.
    const normal = normalizeUri(uri);
    if (!normal.startsWith('file:')) return undefined;
    try {
      return this.#docs.get(pathToFileURL(fileURLToPath(normal)).href);
    } catch {
      return undefined;
    }
  }

  /** Throws the first guard error among `docs` (registration is all-or-nothing). */
  #admit(docs: readonly StoredDocument[]): void {
    for (const doc of docs) {
      const error = this.#refusal(doc.resource.uri);
      if (error) throw error;
    }
  }

  #refusal(uri: string): Error | undefined {
    if (this.#docs.has(uri)) return undefined; // replacing an entry of the store itself
    for (const guard of this.#guards) {
      const error = guard.check(uri);
      if (error) return error;
    }
    return undefined;
  }

  /**
   * The folder's entries as scanned now. With `reuse` (a rescan, which keeps the entries it already has),
   * a file already registered from this root gives its current entry instead of a new one.
   */
  #scan(root: string, registration: FolderRegistration, reuse = false): StoredDocument[] {
    const { config, scan } = registration;
    const shared = { title: config.title, description: config.description, mimeType: config.mimeType };
    const folder = { root, followSymlinks: scan.followSymlinks };
    const { files, tooLarge } = scanFolder(root, scan);
    this.#noteSkipped(root, tooLarge, scan.maxFileSizeBytes);
    return files.map((file) => {
      const existing = reuse ? this.#docs.get(pathToFileURL(file.path).href) : undefined;
      if (existing?.resource.root === root) return existing;
      return makeStoredDocument(
        { ...file, ...shared, maxFileSizeBytes: scan.maxFileSizeBytes, folder },
        this.converters,
      );
    });
  }

  /** Replaces the folder's too-large files with this scan's, telling skip listeners about new ones. */
  #noteSkipped(root: string, tooLarge: readonly ScannedFile[], maxFileSizeBytes: number): void {
    const now = new Set(tooLarge.map((file) => file.path));
    for (const [file, skipped] of this.#skipped)
      if (skipped.root === root && !now.has(file)) this.#skipped.delete(file);
    for (const file of tooLarge) {
      if (this.#skipped.has(file.path)) continue;
      const skipped: SkippedDocument = Object.freeze({ ...file, root, maxFileSizeBytes });
      this.#skipped.set(file.path, skipped);
      for (const listener of [...this.#skipListeners]) {
        try {
          listener(skipped);
        } catch {
          // A failing listener must not break a scan.
        }
      }
    }
  }

  /** Adds or replaces entries (by URI) and emits one `list_changed`. */
  #put(docs: readonly StoredDocument[]): void {
    for (const doc of docs) {
      this.#docs.set(doc.resource.uri, doc);
      this.#forget(doc.resource.path);
    }
    this.#changed();
  }

  /** Drops what is cached or remembered about a file's content. */
  #forget(file: string): void {
    this.#read?.cache.delete(file);
    this.#read?.failures.delete(file);
  }

  #changed(): void {
    this.#list = undefined;
    this.#emit({ type: 'list_changed' });
  }

  #emit(event: DocumentChangeEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A failing listener must not break registration or other listeners.
      }
    }
  }

  /** Watcher: a file changed on disk. */
  #fileChanged(file: string): void {
    const uri = pathToFileURL(file).href;
    if (!this.#docs.has(uri)) return;
    // A new file comes as a folder event (the rescan adds it) and as a change of the file (its
    // writes): unless it changed again since it was added, its `list_changed` said all there is.
    const added = this.#added.get(file);
    this.#added.delete(file);
    if (added !== undefined && added === statMark(file)) return;
    this.#forget(file);
    this.#emit({ type: 'updated', uri });
  }

  /** Watcher: files appeared or vanished under a folder; re-applies the folder's scan and emits on any difference. */
  #rescan(root: string): void {
    const registration = this.#folders.get(root);
    if (registration === undefined) return;
    let fresh: StoredDocument[];
    try {
      const present = statOrUndefined(root)?.isDirectory() === true;
      fresh = present ? this.#scan(root, registration, true) : [];
      if (!present) this.#noteSkipped(root, [], 0);
    } catch {
      return;
    }
    const freshUris = new Set(fresh.map((doc) => doc.resource.uri));
    let changed = false;
    for (const [uri, doc] of this.#docs) {
      if (doc.resource.root === root && !freshUris.has(uri)) {
        this.#docs.delete(uri);
        this.#forget(doc.resource.path);
        this.#added.delete(doc.resource.path);
        changed = true;
      }
    }
    for (const doc of fresh) {
      if (!this.#docs.has(doc.resource.uri)) {
        const refused = this.#refusal(doc.resource.uri);
        if (refused) {
          for (const guard of this.#guards) guard.skipped?.(doc.resource.uri, refused);
          continue;
        }
        this.#docs.set(doc.resource.uri, doc);
        this.#added.set(doc.resource.path, statMark(doc.resource.path));
        changed = true;
      }
    }
    if (changed) this.#changed();
  }
}

/** A file's size and mtime, to tell whether it changed since (empty when it is gone). */
function statMark(file: string): string {
  const stats = statOrUndefined(file);
  return stats ? `${stats.size}:${stats.mtimeMs}` : '';
}

/** For a missing path that starts with `~`, the full path to give instead (the CLI says the same of its folder). */
function tildeHint(given: string | undefined, stats: Stats | undefined): string {
  const meant = stats === undefined && given !== undefined ? tildeExpansion(given) : undefined;
  return meant === undefined
    ? ''
    : ` (it starts with "~", which only a shell expands: give the full path, e.g. ${meant})`;
}
