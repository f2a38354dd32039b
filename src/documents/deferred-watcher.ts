import type { DocumentWatcher, WatchCallbacks } from './document-watcher.js';

/**
 * The store's watcher: a {@link DocumentWatcher}, loaded and made with the first watched path, so that a
 * store that watches nothing (a server without documents) never loads the watching code (bench W0). Calls
 * keep their order: each waits for the watcher, then does what it would do on it directly.
 */
export class DeferredWatcher {
  #watcher: Promise<DocumentWatcher> | undefined;

  constructor(
    private readonly callbacks: WatchCallbacks,
    private readonly debounceMs: number,
    private readonly maxWaitMs: number,
  ) {}

  /** See {@link DocumentWatcher.watchFile}. */
  watchFile(filePath: string): void {
    this.#use((watcher) => watcher.watchFile(filePath)).catch(() => undefined); // reads stay right unwatched
  }

  /** See {@link DocumentWatcher.watchFolder}. */
  watchFolder(root: string): void {
    this.#use((watcher) => watcher.watchFolder(root)).catch(() => undefined);
  }

  /** See {@link DocumentWatcher.ready}; at once when nothing was watched. */
  async ready(): Promise<void> {
    if (this.#watcher !== undefined) await this.#use((watcher) => watcher.ready());
  }

  /** See {@link DocumentWatcher.close}. */
  async close(): Promise<void> {
    if (this.#watcher !== undefined) await this.#use((watcher) => watcher.close());
  }

  #use(action: (watcher: DocumentWatcher) => void | Promise<void>): Promise<void> {
    this.#watcher ??= import('./document-watcher.js').then(
      ({ DocumentWatcher }) => new DocumentWatcher(this.callbacks, this.debounceMs, this.maxWaitMs),
    );
    return this.#watcher.then(action);
  }
}
