/**
 * Optional file watching (chokidar): tells the store when a registered file changes and when files
 * appear or disappear under a registered folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import { isHiddenRelativePath } from './path-policy.js';

/** What the watcher reports; the store decides what each means for its entries. */
export interface WatchCallbacks {
  /** A file's content changed, or the file was removed or re-created (absolute path; debounced: one call per burst). */
  fileChanged(filePath: string): void;
  /** Files or folders were added or removed under a watched folder root (debounced: one call per burst). */
  folderChanged(root: string): void;
}

/**
 * One chokidar watcher per registered file or folder (a folder's watches its folders, not each file). Symlinks are not followed (edits to a link's target
 * are not reported; reads still see them). Dot-files and `node_modules` under a folder are not watched.
 * Debounce timers are unref'd; {@link close} stops everything.
 */
export class DocumentWatcher {
  readonly #watchers = new Map<string, WatchEntry>();
  /** Pending report per key, and when its batch's first event came (for the maximum wait). */
  readonly #timers = new Map<string, { timer: NodeJS.Timeout; since: number }>();

  /**
   * @param debounceMs quiet time (ms) before a file's changes or a folder's additions/removals are reported.
   * @param maxWaitMs longest delay (ms) of a report while events keep coming: a steady stream of changes
   *   (quieter than `debounceMs` never) is still reported at least this often, once per batch.
   */
  constructor(
    readonly callbacks: WatchCallbacks,
    readonly debounceMs = 100,
    readonly maxWaitMs = 1000,
  ) {}

  /** Watches one file (no-op when already watched). */
  watchFile(filePath: string): void {
    this.#start(filePath, undefined, (event, changed) => {
      if (event === 'add' || event === 'change' || event === 'unlink') this.#fileEvent(changed);
    });
  }

  /**
   * Watches a folder tree (no-op when already watched). chokidar watches its folders only: files are
   * left to their folder's watcher (one inotify watch per folder instead of one per file), whose raw
   * events name the file: `change` reports that file, `rename` (added, removed, replaced by an atomic
   * save) reports it when it still exists and makes the folder rescan.
   */
  watchFolder(root: string): void {
    const hidden = (candidate: string): boolean => isHiddenRelativePath(path.relative(root, candidate));
    const ignored = (candidate: string, stats?: { isFile(): boolean }): boolean =>
      hidden(candidate) || stats?.isFile() === true;
    const rescan = () => this.#schedule(`folder:${root}`, () => this.callbacks.folderChanged(root));
    this.#start(
      root,
      ignored,
      () => rescan(), // addDir, unlinkDir: files are ignored, so only folders come as events
      // Files added between the registration's scan and the end of chokidar's own initial scan are
      // part of neither (chokidar does not report its initial files): one rescan once ready finds them.
      rescan,
      (event, name, watchedPath) => {
        if (typeof name !== 'string' || name === '') return;
        const changed = path.join(watchedPath, name);
        if (changed === root || hidden(changed)) return;
        // The file first: a replaced entry is told `updated`, a new one is not known yet (no event).
        this.#fileEvent(changed, event === 'rename');
        if (event === 'rename') rescan();
      },
    );
  }

  /** Resolves once every watcher has finished its initial scan (events before that may be missed). */
  async ready(): Promise<void> {
    await Promise.all([...this.#watchers.values()].map((entry) => entry.ready));
  }

  /** Stops all watchers and pending timers. */
  async close(): Promise<void> {
    for (const { timer } of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    const watchers = [...this.#watchers.values()];
    this.#watchers.clear();
    for (const entry of watchers) entry.closed = true;
    await Promise.all(watchers.map((entry) => entry.ready.then(() => entry.watcher?.close())));
  }

  #start(
    target: string,
    ignored: ((candidate: string, stats?: { isFile(): boolean }) => boolean) | undefined,
    onEvent: (event: string, changed: string) => void,
    onReady?: () => void,
    onRaw?: (event: string, name: unknown, watchedPath: string) => void,
  ): void {
    if (this.#watchers.has(target)) return;
    const entry: WatchEntry = { closed: false, ready: Promise.resolve() };
    // chokidar is loaded with the first watched path, not at import (ESM-only, hence import()).
    entry.ready = import('chokidar').then(({ watch }) => {
      if (entry.closed) return;
      // persistent: false: the server's transport keeps the process alive, never a watcher alone (a
      // script that registers a folder and forgets close() still exits).
      const options = { ignoreInitial: true, followSymlinks: false, persistent: false };
      const watcher = watch(target, { ...options, ...(ignored ? { ignored } : {}) });
      entry.watcher = watcher;
      watcher.on('all', (event, changed) => onEvent(event, changed));
      if (onRaw !== undefined)
        watcher.on('raw', (event, name, details) => {
          const watchedPath = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
          if (typeof watchedPath === 'string') onRaw(event, name, watchedPath);
        });
      // A watcher error (e.g. EMFILE, a removed root) must not crash the server: reads stay correct without it.
      watcher.on('error', () => undefined);
      return new Promise<void>((resolve) =>
        watcher.once('ready', () => {
          if (!entry.closed) onReady?.();
          resolve();
        }),
      );
    });
    this.#watchers.set(target, entry);
  }

  /** Reports a file's change once debounced; with `ifPresent`, only when the file then exists (not a removal). */
  #fileEvent(changed: string, ifPresent = false): void {
    this.#schedule(`file:${changed}`, () => {
      if (!ifPresent || fs.existsSync(changed)) this.callbacks.fileChanged(changed);
    });
  }

  /**
   * Runs `report` once `debounceMs` have passed without another event for the same key, or once
   * `maxWaitMs` have passed since the batch's first event, whichever comes first.
   */
  #schedule(key: string, report: () => void): void {
    const pending = this.#timers.get(key);
    const now = Date.now();
    const since = pending?.since ?? now;
    if (pending !== undefined) clearTimeout(pending.timer);
    const delay = Math.max(0, Math.min(this.debounceMs, since + this.maxWaitMs - now));
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      report();
    }, delay);
    timer.unref();
    this.#timers.set(key, { timer, since });
  }
}

/** One watched path; `watcher` exists once chokidar has loaded, unless `close()` came first. */
interface WatchEntry {
  closed: boolean;
  watcher?: FSWatcher;
  ready: Promise<void>;
}
