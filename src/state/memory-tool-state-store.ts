import type { ToolStateSnapshot, ToolStateStore } from './tool-state-store.js';
import { normalizeOverrides, type ToolOverrides } from '../tool-overrides.js';

/** Sorted, duplicate-free copy of a disabled set (the stored form). */
export function normalizeDisabled(names: Iterable<string>): string[] {
  return [...new Set(names)].sort();
}

/**
 * A {@link ToolStateStore} in this process's memory: the library default. The state lives as
 * long as the store object, so a store shared by a server that is stopped and a new one made
 * later carries the disabled set over; nothing survives the process. It does not push
 * (`subscribe` is absent): nobody else can write to it.
 *
 * @example
 * const store = new MemoryToolStateStore(['dangerous_tool']); // optional initial saved set
 * const server = new HttpMcpServer(info, { toolState: store });
 */
export class MemoryToolStateStore implements ToolStateStore {
  #snapshot?: ToolStateSnapshot;

  /**
   * @param initial - a saved set to start from (version 1); omit for "nothing saved yet".
   * @param overrides - saved tool overrides to start from (with `initial`).
   */
  constructor(initial?: readonly string[], overrides?: ToolOverrides) {
    if (initial) this.#snapshot = snapshotOf(initial, overrides, 1);
  }

  /** The saved snapshot, or `undefined` when nothing was saved. Never throws. */
  async load(): Promise<ToolStateSnapshot | undefined> {
    return this.#snapshot;
  }

  /** Replaces the saved set and overrides; the version grows by one on each save. Never throws. */
  async save(disabled: readonly string[], overrides?: ToolOverrides): Promise<ToolStateSnapshot> {
    this.#snapshot = snapshotOf(disabled, overrides, (this.#snapshot?.version ?? 0) + 1);
    return this.#snapshot;
  }
}

/** A frozen snapshot in the stored form (sorted set, normalized overrides). */
export function snapshotOf(
  disabled: readonly string[],
  overrides: Readonly<Record<string, unknown>> | undefined,
  version: number,
  savedAt = Date.now(),
): ToolStateSnapshot {
  return Object.freeze({
    disabled: normalizeDisabled(disabled),
    overrides: normalizeOverrides(overrides),
    version,
    savedAt,
  });
}
