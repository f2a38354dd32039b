import type { Logger } from '../logger.js';
import type { ToolStateSnapshot, ToolStateStore } from '../state/tool-state-store.js';
import type { RedisLink } from './redis-link.js';
import { MERGE_SCRIPT } from './tool-state-scripts.js';
import {
  disabledOf,
  emptyIntents,
  mergeIntents,
  newer,
  overridesOf,
  type Intent,
  type Intents,
  type OverrideRecord,
  type OverrideRecords,
} from './tool-intents.js';
import { overridesKey, type ToolOverrides } from '../tool-overrides.js';
import { nodeCrypto } from '../lazy-module.js';

/** A published write: the merged state plus the store instance that published it. */
interface StateMessage {
  readonly by: string;
  readonly version: number;
  readonly savedAt: number;
  readonly entries?: Intents;
  readonly overrides?: OverrideRecords;
  readonly disabled: readonly string[];
}

/** What the server was last handed: the disabled set and the overrides. */
const keyOf = (snapshot: ToolStateSnapshot) =>
  `${snapshot.disabled.join('\0')}\u0001${overridesKey(snapshot.overrides)}`;

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
 * What is stored is not a whole set but one *intent* per tool name (disable or enable, with a
 * hybrid-logical stamp and the replica that made it); the disabled set is derived from them.
 * A save turns the difference between the new set and the known one into intents and merges
 * them into Redis with one Lua script (per name the newer intent wins), which bumps the version
 * and publishes the merged state on `<prefix>:tool-state`; each replica applies it and tells its
 * own clients.
 *
 * Rule (docs/scaling.md): **every acknowledged change survives recovery** unless a later change of
 * the same tool replaced it. Redis down: `save()` never fails or waits; the intents apply at
 * once on this replica and are kept until Redis answers, then merged (after a reconnect, and
 * every `resyncMs` while unconfirmed). Two replicas toggling different tools meanwhile both keep
 * their change; the same tool toggled on both ends as the later of the two. Redis restarted
 * empty is the same case: every replica merges what it knows, so the set is re-seeded whole.
 * Configured defaults of a replica that never saw the cluster's state carry stamp 0: any real
 * change wins over them. Tool overrides are kept the same way, as one record per tool name
 * (the override, or null once cleared) merged by the same rule.
 */
export class RedisToolStateStore implements ToolStateStore {
  readonly #key: string;
  readonly #instance = nodeCrypto().randomUUID();
  readonly #listeners = new Set<(snapshot: ToolStateSnapshot) => void>();
  /** Every intent this replica knows (merged from Redis, pushes and its own saves). */
  #entries: Intents = emptyIntents();
  /** Every override record this replica knows. */
  #overrides: OverrideRecords = emptyIntents<OverrideRecord>();
  /** The highest version seen in Redis or used by an offline save. */
  #version = 0;
  #savedAt = 0;
  /** The disabled set last handed to the server (saved, loaded or pushed). */
  #applied = '';
  /** This replica's intents not yet confirmed by Redis (made while it was unreachable, or a failed write). */
  readonly #unconfirmed = new Map<string, Intent>();
  /** The same for override records. */
  readonly #unconfirmedOverrides = new Map<string, OverrideRecord>();
  /** The highest stamp seen: new intents are stamped above it (hybrid logical clock). */
  #clock = 0;
  /** The next save stores configured defaults (stamp 0), not a change made by someone. */
  #defaults = true;
  #reconciling?: Promise<void>;
  #removeReady?: () => void;
  #resync?: NodeJS.Timeout;

  /**
   * @param link - the replica's Redis connections.
   * @param prefix - key and channel prefix shared by the cluster.
   * @param replicaId - this replica's id (stored as the origin of its intents).
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

  /** How many tool changes this replica acknowledged that Redis has not confirmed yet (0 when in step). */
  get unconfirmedChanges(): number {
    return this.#unconfirmed.size + this.#unconfirmedOverrides.size;
  }

  /**
   * Subscribes to changes, then reads the stored state: `undefined` when nothing was stored yet
   * or Redis is unreachable (see the class notes). After `undefined`, the next `save()` is taken
   * as the server's configured defaults (it saves them right away): they fill only names nobody
   * has toggled.
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
      if (fields.version === undefined) return undefined;
      this.#defaults = false;
      const entries = fields.entries
        ? (JSON.parse(fields.entries) as Intents)
        : Object.fromEntries((JSON.parse(fields.disabled ?? '[]') as string[]).map((n) => [n, [1, 0, ''] as const]));
      const overrides = fields.overrides ? (JSON.parse(fields.overrides) as OverrideRecords) : undefined;
      this.#learn(entries, Number(fields.version), Number(fields.savedAt ?? 0), overrides);
      const snapshot = this.#snapshot();
      this.#applied = keyOf(snapshot);
      return snapshot;
    } catch (error) {
      this.logger.warn({ err: error }, 'Reading the tool state from Redis failed; starting with local state.');
      return undefined;
    }
  }

  /** Merges the change into Redis (up) or keeps it as unconfirmed intents (down). Never rejects. */
  async save(disabled: readonly string[], overrides?: ToolOverrides): Promise<ToolStateSnapshot> {
    const wanted = new Set(disabled);
    const known = new Set(disabledOf(this.#entries));
    const intents = emptyIntents();
    const records = emptyIntents<OverrideRecord>();
    const current = overridesOf(this.#overrides);
    const same = (name: string) =>
      overridesKey({ a: current[name] ?? {} }) === overridesKey({ a: overrides![name] ?? {} });
    if (this.#defaults) {
      // Configured defaults (the server's first save after an empty or failed load): stamp 0,
      // and only for names nobody toggled yet, so every real change wins over them.
      this.#defaults = false;
      for (const name of wanted) if (!this.#entries[name]) intents[name] = [1, 0, this.replicaId];
      for (const name of Object.keys(overrides ?? {}))
        if (!this.#overrides[name]) records[name] = [overrides![name]!, 0, this.replicaId];
    } else {
      const stamp = (this.#clock = Math.max(Date.now(), this.#clock + 1));
      for (const name of wanted) if (!known.has(name)) intents[name] = [1, stamp, this.replicaId];
      for (const name of known) if (!wanted.has(name)) intents[name] = [0, stamp, this.replicaId];
      if (overrides)
        for (const name of new Set([...Object.keys(current), ...Object.keys(overrides)]))
          if (!same(name)) records[name] = [overrides[name] ?? null, stamp, this.replicaId];
    }
    this.#entries = mergeIntents(this.#entries, intents);
    this.#overrides = mergeIntents(this.#overrides, records);
    for (const [name, intent] of Object.entries(intents)) this.#unconfirmed.set(name, intent);
    for (const [name, record] of Object.entries(records)) this.#unconfirmedOverrides.set(name, record);
    this.#savedAt = Date.now();
    if (!(await this.#merge())) this.#version += 1; // offline: a local version above all we saw
    const snapshot = this.#snapshot();
    this.#applied = keyOf(snapshot);
    return snapshot;
  }

  /** Calls `listener` with every state stored by another replica (or merged from one on reconciliation). */
  subscribe(listener: (snapshot: ToolStateSnapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Merges everything this replica knows into Redis and hands a changed result to the server.
   * Runs by itself after every reconnection and while changes are unconfirmed; exposed for
   * tests and tools. Never rejects; while Redis is down it does nothing.
   */
  reconcile(): Promise<void> {
    this.#reconciling ??= this.#merge()
      .then(() => this.#emitIfChanged())
      .finally(() => (this.#reconciling = undefined));
    return this.#reconciling;
  }

  /** Stops following changes. The connections belong to the cluster and are closed by it. */
  async close(): Promise<void> {
    clearInterval(this.#resync);
    this.#removeReady?.();
    this.#listeners.clear();
  }

  /** Anti-entropy: one HGET; merges when Redis holds another version, or our changes are unconfirmed. */
  async #checkVersion(): Promise<void> {
    if (!this.link.isReady || this.#reconciling) return;
    try {
      const stored = await this.link.command.hGet(this.#key, 'version');
      if (this.unconfirmedChanges > 0 || stored === null || Number(stored) !== this.#version) await this.reconcile();
    } catch {
      // Redis went away meanwhile: the reconnect reconciles.
    }
  }

  /** One MERGE of every known intent; true when Redis answered. */
  async #merge(): Promise<boolean> {
    if (!this.link.isReady) return false;
    const sent = this.#entries;
    const sentOverrides = this.#overrides;
    try {
      const reply = (await this.link.command.eval(MERGE_SCRIPT, {
        keys: [this.#key, this.#key],
        arguments: [
          JSON.stringify(sent),
          String(this.#version),
          String(this.#savedAt || Date.now()),
          this.replicaId,
          this.#instance,
          JSON.stringify(sentOverrides),
        ],
      })) as [number, string, string, number, string];
      // Intents made while the script ran were not sent: they stay unconfirmed and merge next.
      for (const [name, intent] of this.#unconfirmed)
        if (sent[name] && !newer(intent, sent[name])) this.#unconfirmed.delete(name);
      for (const [name, record] of this.#unconfirmedOverrides)
        if (sentOverrides[name] && !newer(record, sentOverrides[name])) this.#unconfirmedOverrides.delete(name);
      const overrides = JSON.parse(String(reply[4] ?? '{}')) as OverrideRecords;
      this.#learn(JSON.parse(String(reply[2])) as Intents, Number(reply[0]), this.#savedAt, overrides);
      return true;
    } catch (error) {
      this.logger.debug({ err: error }, 'Merging the tool state into Redis failed; retried on reconnect.');
      return false;
    }
  }

  #received(text: string): void {
    const message = parseMessage(text);
    if (!message || message.by === this.#instance) return;
    const entries = message.entries ?? Object.fromEntries(message.disabled.map((n) => [n, [1, 0, ''] as const]));
    const before = this.#entries;
    const beforeOverrides = this.#overrides;
    const overrides = message.overrides ?? {};
    this.#learn(entries, message.version, message.savedAt, message.overrides);
    // We know intents the message lacks (ours, unconfirmed): merging decides, not arrival order.
    if (
      this.unconfirmedChanges > 0 ||
      Object.keys(before).some((name) => newer(before[name]!, entries[name])) ||
      Object.keys(beforeOverrides).some((name) => newer(beforeOverrides[name]!, overrides[name]))
    ) {
      void this.reconcile();
    }
    this.#emitIfChanged();
  }

  #learn(entries: Intents, version: number, savedAt: number, overrides: OverrideRecords = {}): void {
    this.#entries = mergeIntents(this.#entries, entries);
    this.#overrides = mergeIntents(this.#overrides, overrides);
    for (const [, stamp] of [...Object.values(entries), ...Object.values(overrides)])
      this.#clock = Math.max(this.#clock, stamp);
    if (version > this.#version) {
      this.#version = version;
      this.#savedAt = savedAt;
    }
  }

  /** Hands the known set to the server when it differs from what the server last got. */
  #emitIfChanged(): void {
    const snapshot = this.#snapshot();
    const key = keyOf(snapshot);
    if (key === this.#applied) return;
    this.#applied = key;
    for (const listener of [...this.#listeners]) listener(snapshot);
  }

  #snapshot(): ToolStateSnapshot {
    return Object.freeze({
      disabled: Object.freeze(disabledOf(this.#entries)),
      overrides: overridesOf(this.#overrides),
      version: this.#version,
      savedAt: this.#savedAt,
    });
  }
}
