import type { Logger } from '../logger.js';
import type { ToolStateSnapshot, ToolStateStore } from '../state/tool-state-store.js';
import type { RedisLink } from './redis-link.js';
import { RECONCILE_SCRIPT, SAVE_SCRIPT } from './tool-state-scripts.js';
import { nodeCrypto } from '../lazy-module.js';

/** A snapshot plus the replica that wrote it (breaks ties between equal versions). */
interface StoredState extends ToolStateSnapshot {
  readonly origin: string;
}

/** A published write: the state plus the store instance that published it. */
interface StateMessage extends StoredState {
  readonly by: string;
}

const sameSet = (a: ToolStateSnapshot, b: ToolStateSnapshot) => a.disabled.join('\0') === b.disabled.join('\0');
const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

function parseMessage(text: string): StateMessage | undefined {
  try {
    const value = JSON.parse(text) as StateMessage;
    return Array.isArray(value.disabled) && Number.isFinite(value.version) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A {@link ToolStateStore} in Redis, shared by every replica of a cluster (made by `createCluster()`).
 *
 * The disabled set is one hash `<prefix>:tool-state` {disabled, version, savedAt, origin}; every
 * save runs one Lua script that bumps the version and publishes the new state on the channel
 * `<prefix>:tool-state`, so each replica applies changes made elsewhere (and tells its own clients).
 *
 * Redis down: `save()` never fails or waits; the set is kept as a local pending state with the
 * next version. When Redis returns, the pending (or last known) state is reconciled with the
 * stored one: last writer wins by (version, savedAt), and the winner is published so every
 * replica converges. `load()` while Redis is down returns `undefined` (the server keeps its
 * configured set, and that set loses against any state stored in Redis on reconciliation).
 */
export class RedisToolStateStore implements ToolStateStore {
  readonly #key: string;
  readonly #instance = nodeCrypto().randomUUID();
  readonly #listeners = new Set<(snapshot: ToolStateSnapshot) => void>();
  /** The newest state this replica knows (loaded, saved, received). */
  #known?: StoredState;
  /** A state saved while Redis was unreachable, not yet reconciled. */
  #pending?: StoredState;
  /** True until this replica has seen the cluster's state (read or written it once). */
  #weak = true;
  #reconciling?: Promise<void>;
  #removeReady?: () => void;
  #resync?: NodeJS.Timeout;

  /**
   * @param link - the replica's Redis connections.
   * @param prefix - key and channel prefix shared by the cluster.
   * @param replicaId - this replica's id (stored as the writer's origin).
   * @param resyncMs - how often the stored version is compared with the known one, in ms: pub/sub
   *   drops messages sent while a subscriber reconnects, and this check repairs that.
   */
  constructor(
    private readonly link: RedisLink,
    prefix: string,
    private readonly replicaId: string,
    private readonly logger: Logger,
    private readonly resyncMs = 1_000,
  ) {
    this.#key = `${prefix}:tool-state`;
  }

  /**
   * Subscribes to changes, then reads the stored state: `undefined` when nothing was stored yet
   * or Redis is unreachable (see the class notes).
   */
  async load(): Promise<ToolStateSnapshot | undefined> {
    await this.link.subscribe(this.#key, (text) => this.#received(text));
    this.#removeReady ??= this.link.onReady(() => void this.reconcile());
    if (!this.#resync) {
      this.#resync = setInterval(() => void this.#checkVersion(), this.resyncMs);
      this.#resync.unref();
    }
    if (!this.link.isReady) return undefined;
    try {
      const fields = await this.link.command.hGetAll(this.#key);
      this.#weak = false;
      if (fields.version === undefined) return undefined;
      const state: StoredState = {
        disabled: sorted(JSON.parse(fields.disabled ?? '[]') as string[]),
        version: Number(fields.version),
        savedAt: Number(fields.savedAt ?? 0),
        origin: fields.origin ?? '',
      };
      this.#learn(state);
      return this.#snapshot(state);
    } catch (error) {
      this.logger.warn({ err: error }, 'Reading the tool state from Redis failed; starting with local state.');
      return undefined;
    }
  }

  /** Stores the whole set (Redis up) or keeps it pending (Redis down). Never rejects. */
  async save(disabled: readonly string[]): Promise<ToolStateSnapshot> {
    const names = sorted(disabled);
    const savedAt = Date.now();
    const floor = Math.max(this.#known?.version ?? 0, this.#pending?.version ?? 0);
    if (this.link.isReady && !this.#pending) {
      try {
        const version = Number(
          await this.link.command.eval(SAVE_SCRIPT, {
            keys: [this.#key, this.#key],
            arguments: [JSON.stringify(names), String(floor), String(savedAt), this.replicaId, this.#instance],
          }),
        );
        const state: StoredState = { disabled: names, version, savedAt, origin: this.replicaId };
        this.#weak = false;
        this.#learn(state);
        return this.#snapshot(state);
      } catch (error) {
        this.logger.debug({ err: error }, 'Saving the tool state to Redis failed; kept locally until it returns.');
      }
    }
    this.#pending = { disabled: names, version: floor + 1, savedAt, origin: this.replicaId };
    this.#learn(this.#pending);
    if (this.link.isReady) void this.reconcile();
    return this.#snapshot(this.#pending);
  }

  /** Calls `listener` with every state stored by another replica (or won by one on reconciliation). */
  subscribe(listener: (snapshot: ToolStateSnapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Reconciles this replica's pending (or last known) state with Redis: last writer wins (see
   * the class notes). Runs by itself after every reconnection; exposed for tests and tools.
   * Never rejects; while Redis is down it does nothing.
   */
  reconcile(): Promise<void> {
    this.#reconciling ??= this.#reconcile().finally(() => (this.#reconciling = undefined));
    return this.#reconciling;
  }

  /** Stops following changes. The connections belong to the cluster and are closed by it. */
  async close(): Promise<void> {
    clearInterval(this.#resync);
    this.#removeReady?.();
    this.#listeners.clear();
  }

  /** Anti-entropy: one HGET; reconciles when Redis holds another version than the one we know. */
  async #checkVersion(): Promise<void> {
    if (!this.link.isReady || this.#reconciling) return;
    try {
      const stored = await this.link.command.hGet(this.#key, 'version');
      if (this.#pending || stored === null || Number(stored) !== this.#known?.version) await this.reconcile();
    } catch {
      // Redis went away meanwhile: the reconnect reconciles.
    }
  }

  async #reconcile(): Promise<void> {
    const mine = this.#pending ?? this.#known;
    if (!mine || !this.link.isReady) return;
    try {
      const reply = (await this.link.command.eval(RECONCILE_SCRIPT, {
        keys: [this.#key, this.#key],
        arguments: [
          JSON.stringify(mine.disabled),
          String(mine.version),
          String(mine.savedAt),
          mine.origin,
          this.#instance,
          this.#weak ? '1' : '0',
        ],
      })) as Array<string | number>;
      if (this.#pending === mine) this.#pending = undefined;
      this.#weak = false;
      const [outcome, version] = [String(reply[0]), Number(reply[1])];
      if (outcome === 'ours') this.#learn({ ...mine, version });
      if (outcome === 'theirs') {
        const state: StoredState = {
          disabled: sorted(JSON.parse(String(reply[2])) as string[]),
          version,
          savedAt: Number(reply[3]),
          origin: String(reply[4]),
        };
        this.#accept(state);
      }
      // A save made while this ran is pending again: reconcile it too.
      if (this.#pending) setImmediate(() => void this.reconcile());
    } catch (error) {
      this.logger.debug({ err: error }, 'Reconciling the tool state with Redis failed; retried on reconnect.');
    }
  }

  #received(text: string): void {
    const message = parseMessage(text);
    if (!message || message.by === this.#instance) return;
    if (this.#pending) {
      // Ours is unreconciled: reconciliation decides (last writer wins), not arrival order.
      void this.reconcile();
      return;
    }
    this.#accept(message);
  }

  /** A state written elsewhere that is newer than ours: remember it and hand it to the server. */
  #accept(state: StoredState): void {
    const known = this.#known;
    if (known && (state.version < known.version || (state.version === known.version && sameSet(state, known)))) return;
    this.#learn(state);
    const snapshot = this.#snapshot(state);
    for (const listener of [...this.#listeners]) listener(snapshot);
  }

  #learn(state: StoredState): void {
    if (!this.#known || state.version >= this.#known.version) this.#known = state;
  }

  #snapshot(state: StoredState): ToolStateSnapshot {
    return Object.freeze({
      disabled: Object.freeze([...state.disabled]),
      version: state.version,
      savedAt: state.savedAt,
    });
  }
}
