import { backgroundLoadOnce } from '../lazy-module.js';
import type { DocumentWatcher, WatchCallbacks } from './document-watcher.js';

/**
 * The store's watcher: a {@link DocumentWatcher}, loaded and made with the first watched path, so that a
 * store that watches nothing (a server without documents) never loads the watching code (bench W0), and once
 * the event loop has polled for I/O, so that starting to watch never delays the answer to a client's first
 * message, already waiting ({@link backgroundLoadOnce}). Calls keep their order: each waits for the watcher, then
 * does what it would do on it directly. When its code cannot be loaded (a broken install, or `dist/` replaced
 * under a running server), paths go unwatched (reads stay right), a process warning says so (code
 * `MCP_TOOLKIT_WATCHER_UNAVAILABLE`, on stderr by default), the next watched path tries the load again, and
 * `ready()` and `close()` have nothing to wait for.
 */
export class DeferredWatcher {
  readonly #watcher = backgroundLoadOnce(() =>
    import('./document-watcher.js').then(
      ({ DocumentWatcher }) => new DocumentWatcher(this.callbacks, this.debounceMs, this.maxWaitMs),
    ),
  );
  /** The watcher the last call waited for (undefined when it could not be loaded): what ready() and close() act on. */
  #latest: Promise<DocumentWatcher | undefined> | undefined;

  constructor(
    private readonly callbacks: WatchCallbacks,
    private readonly debounceMs: number,
    private readonly maxWaitMs: number,
  ) {}

  /** See `DocumentWatcher.watchFile`. */
  watchFile(filePath: string): void {
    void this.#use().then((watcher) => watcher?.watchFile(filePath));
  }

  /** See `DocumentWatcher.watchFolder`. */
  watchFolder(root: string): void {
    void this.#use().then((watcher) => watcher?.watchFolder(root));
  }

  /** See `DocumentWatcher.ready`; at once when nothing was watched yet or the watcher could not load. */
  async ready(): Promise<void> {
    await (await this.#latest)?.ready();
  }

  /** See `DocumentWatcher.close`; at once when nothing was watched yet or the watcher could not load. */
  async close(): Promise<void> {
    await (await this.#latest)?.close();
  }

  #use(): Promise<DocumentWatcher | undefined> {
    this.#latest = this.#watcher().catch((error: unknown) => {
      globalThis.process?.emitWarning(
        `documents are not watched: the watcher could not be loaded (${(error as Error)?.message ?? String(error)}); ` +
          'reads still work, and the next watched path tries again.',
        { code: 'MCP_TOOLKIT_WATCHER_UNAVAILABLE' },
      );
      return undefined;
    });
    return this.#latest;
  }
}
