import type { ToolOverrides } from '../tool-overrides.js';

/**
 * Where the disabled-tool set (and the operators' tool overrides) lives beyond one process's memory. The server loads it at
 * `start()`, saves it after every change, and, when the store can push, applies changes made
 * elsewhere (another replica, another admin) to its own registry and clients.
 *
 * Implementations: `MemoryToolStateStore` (library default), `FileToolStateStore` (JSON file,
 * atomic write; the CLI), and a Redis store for replicas (`src/cluster/`).
 */
export interface ToolStateStore {
  /**
   * The saved state, or `undefined` when nothing was saved yet (the server then keeps its
   * configured defaults and saves them). Must never return a half-read set.
   * @throws ToolStateError when the stored state exists but cannot be read or parsed: the server
   *   logs it and starts with its configured defaults. Any other error (e.g. the backing service
   *   cannot be reached) makes the server's `start()` reject.
   */
  load(): Promise<ToolStateSnapshot | undefined>;
  /**
   * Saves the whole disabled set (names that are not registered yet included) and the whole
   * overrides table by registered name, atomically:
   * a reader sees either the previous or the new set, never a mix. Returns the stored snapshot
   * (with the store's version after the write). The server calls it one save at a time.
   * A store written before overrides existed may ignore `overrides` and answer snapshots without
   * them: the server then keeps its overrides in memory only.
   * @throws ToolStateError (or any error) when the write failed; the server logs it, emits
   *   `toolStateSaveFailed` and retries with the next change.
   */
  save(disabled: readonly string[], overrides?: ToolOverrides): Promise<ToolStateSnapshot>;
  /**
   * Optional push: calls `listener` with every snapshot saved elsewhere (never the ones this
   * store instance saved itself). The server applies a snapshot whose `version` is higher than
   * the last one it saved or applied, in one `setDisabledTools` (clients told once), and does not
   * save it back. Returns an unsubscribe function (called by `stop()`).
   */
  subscribe?(listener: (snapshot: ToolStateSnapshot) => void): () => void;
  /** Releases files, connections and timers; the server calls it from `stop()`. */
  close?(): Promise<void>;
}

/** One saved state of the disabled set. */
export interface ToolStateSnapshot {
  /** Disabled tool names, sorted, without duplicates. */
  readonly disabled: readonly string[];
  /**
   * Tool overrides by registered name (`{ name?, title?, description? }`). Absent when the store
   * keeps none (a store or a state file from before overrides): the server's overrides stay as they are.
   */
  readonly overrides?: ToolOverrides;
  /** Monotonic version: higher wins when two writers race (last writer wins). */
  readonly version: number;
  /** When it was saved, ms since the epoch. */
  readonly savedAt: number;
}
