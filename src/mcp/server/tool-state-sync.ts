import { ToolStateError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ToolStateSnapshot, ToolStateStore } from '../../state/tool-state-store.js';
import type { ServerEvents } from './server-events.js';
import { overridesKey, type ToolOverrides } from '../../tool-overrides.js';

/** What the sync reads and writes: the registry's disabled set and tool overrides. */
export interface DisabledSet {
  disabledNames(): string[];
  overrides(): ToolOverrides;
  /** Applies both in one change (clients told once); `overrides` undefined keeps the current ones. */
  replaceState(names: Iterable<string>, overrides?: ToolOverrides): void;
}

/** Identity of a state (sorted disabled set plus overrides); a snapshot without overrides counts as ours. */
const keyOf = (names: readonly string[], overrides: ToolOverrides | undefined) =>
  `${names.join('\0')}\u0001${overridesKey(overrides)}`;

/**
 * Keeps a server's disabled set and tool overrides and a {@link ToolStateStore} in step:
 *
 * - `start()` loads the saved set and applies it (replacing the configured defaults), or saves
 *   the defaults when nothing was saved. A `ToolStateError` (corrupt file) is logged naming
 *   its source and the defaults stay; any other load error fails `start()`.
 * - `changed()` after each local change: saves run one at a time, each writing the set as it
 *   is when the save begins, so a burst of changes ends with the last state stored.
 * - Pushed snapshots (the store's `subscribe`) newer than what we know are applied to the
 *   set in one `setDisabled` (so clients are told once); while a local save is pending the
 *   newest push waits and is applied afterwards only if the store's version moved past ours.
 * - A save answered with another set (a store that merges changes made elsewhere) applies it.
 */
export class ToolStateSync {
  #active = false;
  #applying = false;
  #running = false;
  #dirty = false;
  #savedKey?: string;
  #version = 0;
  #pendingRemote?: ToolStateSnapshot;
  #unsubscribe?: () => void;
  #idle: Array<() => void> = [];

  private readonly logger: Logger;

  /** @param server - where to log, and whose `events` get `toolStateSaveFailed`. */
  constructor(
    private readonly store: ToolStateStore,
    private readonly target: DisabledSet,
    private readonly server: { readonly logger: Logger; readonly events: ServerEvents },
  ) {
    this.logger = server.logger;
  }

  /** Loads and applies the saved set, then follows pushes. @throws what `load()` threw, unless a ToolStateError. */
  async start(): Promise<void> {
    if (this.#active) return; // a start() retried after its transport failed to listen
    let snapshot: ToolStateSnapshot | undefined;
    let failed = false;
    try {
      snapshot = await this.store.load();
    } catch (error) {
      if (!(error instanceof ToolStateError)) throw error;
      failed = true;
      this.logger.warn(
        { err: error, source: error.source },
        `${error.message} Starting with the configured disabled tools: [${this.target.disabledNames().join(', ')}].`,
      );
    }
    this.#active = true;
    if (snapshot) this.#apply(snapshot);
    this.#unsubscribe = this.store.subscribe?.((pushed) => this.#remote(pushed));
    if (!snapshot && !failed) this.changed(); // first run: store the defaults
  }

  /** Call after every local change of the disabled set; cheap when nothing changed. */
  changed(): void {
    if (!this.#active || this.#applying) return;
    this.#dirty = true;
    if (!this.#running) void this.#run();
  }

  /** Resolves once every save queued so far has finished (ok or failed). */
  flush(): Promise<void> {
    if (!this.#running) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Stops following pushes, waits for pending saves, closes the store (a failure is logged, not thrown). */
  async close(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    await this.flush();
    this.#active = false;
    await this.store
      .close?.()
      ?.catch((error: unknown) => this.logger.error({ err: error }, 'closing the tool state store failed'));
  }

  async #run(): Promise<void> {
    this.#running = true;
    let attempted: string | undefined; // a set that just failed is retried by the next change, not in a loop
    let merged: ToolStateSnapshot | undefined; // a store that merges may answer another set than the one saved
    while (this.#dirty) {
      this.#dirty = false;
      const names = this.target.disabledNames();
      const overrides = this.target.overrides();
      const key = keyOf(names, overrides);
      if (key === this.#savedKey || key === attempted) continue;
      attempted = key;
      try {
        const saved = await this.store.save(names, overrides);
        this.#savedKey = key;
        this.#version = Math.max(this.#version, saved.version);
        merged = this.#keyOf(saved) === key ? undefined : saved;
      } catch (error) {
        const failure =
          error instanceof ToolStateError
            ? error
            : new ToolStateError(`Saving the tool state failed: ${(error as Error)?.message}`, 'store', {
                cause: error,
              });
        this.logger.error(
          { err: failure },
          `${failure.message} The change is kept in memory; the next change retries.`,
        );
        this.server.events.safeEmit('toolStateSaveFailed', { error: failure });
      }
    }
    this.#running = false;
    const pending = this.#pendingRemote;
    this.#pendingRemote = undefined;
    if (pending && this.#newer(pending)) this.#apply(pending);
    else if (merged && merged.version >= this.#version) this.#apply(merged);
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  #remote(snapshot: ToolStateSnapshot): void {
    if (!this.#active || !this.#newer(snapshot)) return;
    if (this.#running || this.#dirty) {
      if (!this.#pendingRemote || snapshot.version >= this.#pendingRemote.version) this.#pendingRemote = snapshot;
      return;
    }
    this.#apply(snapshot);
  }

  /** A higher version, or the same version with another set (a store that merges changes learnt it). */
  #newer(snapshot: ToolStateSnapshot): boolean {
    if (snapshot.version !== this.#version) return snapshot.version > this.#version;
    return this.#keyOf(snapshot) !== this.#savedKey;
  }

  /** A snapshot's key; one without overrides (an older store) is read as keeping ours. */
  #keyOf(snapshot: ToolStateSnapshot): string {
    return keyOf([...snapshot.disabled].sort(), snapshot.overrides ?? this.target.overrides());
  }

  #apply(snapshot: ToolStateSnapshot): void {
    this.#applying = true;
    try {
      this.target.replaceState(snapshot.disabled, snapshot.overrides);
    } finally {
      this.#applying = false;
    }
    this.#savedKey = this.#keyOf(snapshot);
    this.#version = Math.max(this.#version, snapshot.version);
  }
}
