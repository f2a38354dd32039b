import type { Logger } from '../logger.js';
import type { ChangeBus, ClusterChange } from '../state/change-bus.js';
import type { RedisLink } from './redis-link.js';
import { nodeCrypto } from '../lazy-module.js';

const TYPES = new Set(['resourceUpdated', 'resourcesChanged', 'promptsChanged']);

/** One published change as it travels and is logged. */
interface Message {
  readonly seq: number;
  readonly epoch: string;
  readonly by: string;
  readonly change: ClusterChange;
}

function parse(text: string): Message | undefined {
  try {
    const value = JSON.parse(text) as { seq?: unknown; epoch?: unknown; by?: unknown; type?: unknown; uri?: unknown };
    if (typeof value.by !== 'string' || !TYPES.has(value.type as string)) return undefined;
    if (typeof value.seq !== 'number' || typeof value.epoch !== 'string') return undefined;
    if (value.type === 'resourceUpdated' && typeof value.uri !== 'string') return undefined;
    const change = (
      value.type === 'resourceUpdated' ? { type: value.type, uri: value.uri } : { type: value.type }
    ) as ClusterChange;
    return { seq: value.seq, epoch: value.epoch, by: value.by, change };
  } catch {
    return undefined;
  }
}

/** Changes kept while Redis is unreachable, at most (distinct ones: repeats coalesce). */
const MAX_HELD = 10_000;
/** Changes kept in Redis for replicas that missed them while reconnecting. */
const LOG_LENGTH = 1_000;

/**
 * PUBLISH with a sequence number: KEYS seq counter, log list, epoch, channel; ARGV message JSON
 * (an object without seq/epoch), a fresh epoch (used when Redis holds none, i.e. it started empty).
 */
const PUBLISH_SCRIPT = `
redis.call('SET', KEYS[3], ARGV[2], 'NX')
local epoch = redis.call('GET', KEYS[3])
local n = redis.call('INCR', KEYS[1])
local m = '{"seq":' .. n .. ',"epoch":' .. cjson.encode(epoch) .. ',' .. string.sub(ARGV[1], 2)
redis.call('RPUSH', KEYS[2], m)
redis.call('LTRIM', KEYS[2], -${LOG_LENGTH}, -1)
redis.call('PUBLISH', KEYS[4], m)
return n`;

const keyOf = (change: ClusterChange) =>
  change.type === 'resourceUpdated' ? `${change.type}\0${change.uri}` : change.type;

/**
 * A {@link ChangeBus} on Redis: each change gets a sequence number, is kept in a short log
 * (`<prefix>:changes:log`, the last 1,000) and published on `<prefix>:changes`, all in one Lua
 * script. A replica's own messages come back to it and are dropped by `by`.
 *
 * Rule (docs/scaling.md): an acknowledged change is not lost to a Redis fault.
 * - Raised while Redis is unreachable (or its PUBLISH failed): it reaches local clients at once
 *   and is held, then published when Redis answers again. Held changes coalesce (one per URI,
 *   one list change per kind: a notification only says "re-read"); past {@link MAX_HELD}
 *   distinct ones the oldest are dropped with a warning.
 * - Missed by a replica whose subscription was reconnecting: it sees a gap in the sequence (or,
 *   every `resyncMs`, a counter ahead of what it saw) and reads the missing ones from the log,
 *   in order, each once. Redis restarted empty starts a new epoch; replicas follow it.
 */
export class RedisChangeBus implements ChangeBus {
  readonly #channel: string;
  readonly #seq: string;
  readonly #log: string;
  readonly #epochKey: string;
  readonly #instance = nodeCrypto().randomUUID();
  readonly #listeners = new Set<(change: ClusterChange) => void>();
  readonly #held = new Map<string, ClusterChange>();
  /** The last sequence number handled in `#epoch` (undefined: not known yet, take the current one). */
  #seen?: number;
  #epoch?: string;
  #catchingUp?: Promise<void>;
  #removeReady?: () => void;
  #resync?: NodeJS.Timeout;

  constructor(
    private readonly link: RedisLink,
    prefix: string,
    private readonly logger: Logger,
    private readonly resyncMs = 1_000,
  ) {
    this.#channel = `${prefix}:changes`;
    this.#seq = `${prefix}:changes:seq`;
    this.#log = `${prefix}:changes:log`;
    this.#epochKey = `${prefix}:changes:epoch`;
  }

  /** How many changes wait for Redis to be published (0 when in step). */
  get heldChanges(): number {
    return this.#held.size;
  }

  /** Subscribes the channel; resolves at once while Redis is down (subscribed on reconnect). */
  async open(): Promise<void> {
    this.#removeReady ??= this.link.onReady(() => {
      this.#replay();
      void this.#catchUp();
    });
    await this.link.subscribe(this.#channel, (text) => this.#received(text));
    await this.#catchUp();
    this.#resync ??= setInterval(() => void this.#catchUp(), this.resyncMs);
    this.#resync.unref();
  }

  publish(change: ClusterChange): void {
    if (!this.link.isReady) return this.#hold(change);
    const keys = [this.#seq, this.#log, this.#epochKey, this.#channel];
    const args = [JSON.stringify({ by: this.#instance, ...change }), nodeCrypto().randomUUID()];
    this.link.command.eval(PUBLISH_SCRIPT, { keys, arguments: args }).catch((error: unknown) => {
      this.logger.debug({ err: error }, 'publishing a change to Redis failed; held until it answers');
      this.#hold(change);
    });
  }

  subscribe(listener: (change: ClusterChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops replaying and catching up. The connections belong to the cluster and are closed by it. */
  close(): void {
    clearInterval(this.#resync);
    this.#removeReady?.();
    this.#held.clear();
  }

  #hold(change: ClusterChange): void {
    const key = keyOf(change);
    this.#held.delete(key);
    this.#held.set(key, change);
    if (this.#held.size > MAX_HELD) {
      this.#held.delete(this.#held.keys().next().value!);
      this.logger.warn(`More than ${MAX_HELD} changes wait for Redis: the oldest is dropped.`);
    }
  }

  #replay(): void {
    const held = [...this.#held.values()];
    this.#held.clear();
    for (const change of held) this.publish(change);
  }

  #received(text: string): void {
    const message = parse(text);
    if (!message) return;
    if (this.#seen === undefined || message.epoch !== this.#epoch || message.seq !== this.#seen + 1) {
      void this.#catchUp(); // a gap, a new epoch, or not started: the log decides, in order
      return;
    }
    this.#handle(message);
  }

  /** Reads every logged change after the last one handled (in order); cheap when there is none. */
  #catchUp(): Promise<void> {
    this.#catchingUp ??= this.#readLog().finally(() => (this.#catchingUp = undefined));
    return this.#catchingUp;
  }

  async #readLog(): Promise<void> {
    if (!this.link.isReady) return;
    try {
      const [epoch, counter] = await Promise.all([
        this.link.command.get(this.#epochKey),
        this.link.command.get(this.#seq),
      ]);
      const current = Number(counter ?? 0);
      if (this.#seen === undefined) {
        // A replica that just joined has no clients that missed anything: start at the present.
        [this.#seen, this.#epoch] = [current, epoch ?? undefined];
        return;
      }
      if (epoch !== this.#epoch) [this.#seen, this.#epoch] = [0, epoch ?? undefined];
      if (current <= this.#seen) return;
      for (const text of await this.link.command.lRange(this.#log, 0, -1)) {
        const message = parse(text);
        if (message && message.epoch === this.#epoch && message.seq > this.#seen) this.#handle(message);
      }
    } catch (error) {
      this.logger.debug({ err: error }, 'reading missed changes from Redis failed; retried');
    }
  }

  #handle(message: Message): void {
    this.#seen = message.seq;
    if (message.by === this.#instance) return;
    for (const listener of [...this.#listeners]) {
      try {
        listener(message.change);
      } catch (error) {
        this.logger.error({ err: error }, 'a cluster change listener threw');
      }
    }
  }
}
