/**
 * Optional file watching (chokidar): tells the store when a registered file changes and when files
 * appear or disappear under a registered folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import { isHiddenRelativePath, isInside } from './path-policy.js';

/** What the watcher reports; the store decides what each means for its entries. */
export interface WatchCallbacks {
  /** A file's content changed, or the file was removed or re-created (absolute path; debounced: one call per burst). */
  fileChanged(filePath: string): void;
  /** Files or folders were added or removed under a watched folder root (debounced: one call per burst). */
  folderChanged(root: string): void;
}

/**
 * One chokidar watcher per registered file and per folder of a registered folder tree (not per file).
 * Symlinks are not followed (edits to a link's target are not reported; reads still see them). Dot-files and `node_modules` under a folder are not watched.
 * Debounce timers are unref'd; {@link close} stops everything.
 */
export class DocumentWatcher {
  readonly #files = new Map<string, WatchEntry>();
  /** Per watched folder root, one watcher per folder under it. */
  readonly #folders = new Map<string, Map<string, WatchEntry>>();
  /** The last folder watcher to start (they start one after another). */
  #tail: Promise<void> = Promise.resolve();
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
    if (this.#files.has(filePath)) return;
    const entry: WatchEntry = { closed: false, ready: Promise.resolve() };
    this.#files.set(filePath, entry);
    entry.ready = this.#open(entry, filePath, {}, (event, changed) => {
      if (event === 'add' || event === 'change' || event === 'unlink') this.#fileEvent(changed);
    }).then(() => undefined);
  }

  /**
   * Watches a folder tree (no-op when already watched): one chokidar watcher per folder (depth 0), started
   * one after another. chokidar lstat's every entry of a folder it reads, and left to recurse itself it
   * reads every folder at once (100,000 files: 450 MiB peak, 270 MiB kept; one folder at a time: 86 MiB,
   * docs/performance.md, W8). Files are ignored (one inotify watch per folder): a folder's raw events name
   * the file: `change` reports that file, `rename` (added, removed, replaced by an atomic save) reports it
   * when it still exists and makes the folder rescan. A new subfolder is watched in turn.
   */
  watchFolder(root: string): void {
    if (this.#folders.has(root)) return;
    const folders = new Map<string, WatchEntry>();
    this.#folders.set(root, folders);
    const hidden = (candidate: string): boolean => isHiddenRelativePath(path.relative(root, candidate));
    const ignored = (candidate: string, stats?: { isFile(): boolean }): boolean =>
      hidden(candidate) || stats?.isFile() === true;
    const rescan = () => this.#schedule(`folder:${root}`, () => this.callbacks.folderChanged(root));
    const onRaw = (event: string, name: unknown, watchedPath: string): void => {
      if (typeof name !== 'string' || name === '') return;
      const changed = path.join(watchedPath, name);
      if (changed === root || hidden(changed)) return;
      // The file first: a replaced entry is told `updated`, a new one is not known yet (no event).
      this.#fileEvent(changed, event === 'rename');
      if (event === 'rename') rescan();
    };
    const onEvent = (dir: string) => (event: string, changed: string) => {
      if (event === 'addDir' && changed !== dir) watchDir(changed);
      if (event === 'unlinkDir') for (const sub of folders.keys()) if (isInside(changed, sub)) unwatch(sub);
      rescan(); // addDir, unlinkDir: files are ignored, so only folders come as events
    };
    // Files added between a scan of the store and the end of chokidar's start are part of neither
    // (chokidar does not report its initial files): one rescan once the tree (or a new folder) is watched.
    let starting = 0;
    const watchDir = (dir: string): void => {
      if (folders.has(dir) || hidden(dir)) return;
      const entry: WatchEntry = { closed: false, ready: Promise.resolve() };
      folders.set(dir, entry);
      starting += 1;
      const opened = this.#tail
        .then(() => this.#open(entry, dir, { depth: 0, ignored }, onEvent(dir), onRaw))
        .catch(() => undefined); // a folder that cannot be watched must not stop the others
      entry.ready = this.#tail = opened.then((watcher) => {
        // Its subfolders: chokidar lstat'ed them (depth 1) without reading them.
        for (const sub of Object.keys(watcher?.getWatched() ?? {}))
          if (sub !== dir && path.dirname(sub) === dir) watchDir(sub);
        starting -= 1;
        if (starting === 0 && !entry.closed) rescan();
      });
    };
    const unwatch = (dir: string): void => {
      const entry = folders.get(dir);
      folders.delete(dir);
      if (entry === undefined) return;
      entry.closed = true;
      void entry.ready.then(() => entry.watcher?.close());
    };
    watchDir(root);
  }

  /** Resolves once every watcher has finished its initial scan (events before that may be missed). */
  async ready(): Promise<void> {
    // Folders start one after another, and a started folder queues its subfolders: wait for the last.
    for (let tail: Promise<void> | undefined; tail !== this.#tail;) await (tail = this.#tail);
    await Promise.all([...this.#files.values()].map((entry) => entry.ready));
  }

  /** Stops all watchers and pending timers. */
  async close(): Promise<void> {
    for (const { timer } of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    const watchers = [...this.#files.values(), ...[...this.#folders.values()].flatMap((tree) => [...tree.values()])];
    this.#files.clear();
    this.#folders.clear();
    for (const entry of watchers) entry.closed = true;
    await Promise.all(watchers.map((entry) => entry.ready.then(() => entry.watcher?.close())));
  }

  /** Starts chokidar on `target` for `entry` (unless closed first); resolves with the watcher once ready. */
  async #open(
    entry: WatchEntry,
    target: string,
    extra: { depth?: number; ignored?: (candidate: string, stats?: { isFile(): boolean }) => boolean },
    onEvent: (event: string, changed: string) => void,
    onRaw?: (event: string, name: unknown, watchedPath: string) => void,
  ): Promise<FSWatcher | undefined> {
    // chokidar is loaded with the first watched path, not at import (ESM-only, hence import()).
    const { watch } = await import('chokidar');
    if (entry.closed) return undefined;
    // persistent: false: the server's transport keeps the process alive, never a watcher alone (a
    // script that registers a folder and forgets close() still exits).
    const watcher = watch(target, { ignoreInitial: true, followSymlinks: false, persistent: false, ...extra });
    entry.watcher = watcher;
    watcher.on('all', (event, changed) => {
      if (!entry.closed) onEvent(event, changed);
    });
    if (onRaw !== undefined)
      watcher.on('raw', (event, name, details) => {
        const watchedPath = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
        if (!entry.closed && typeof watchedPath === 'string') onRaw(event, name, watchedPath);
      });
    // A watcher error (e.g. EMFILE, a removed root) must not crash the server: reads stay correct without it.
    watcher.on('error', () => undefined);
    await new Promise<void>((resolve) => watcher.once('ready', resolve));
    return watcher;
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
