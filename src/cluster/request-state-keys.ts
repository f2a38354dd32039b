import type { Logger } from '../logger.js';
import type { RequestStateKeys } from '../state/cluster-membership.js';
import type { RedisLink } from './redis-link.js';
import { nodeCrypto } from '../lazy-module.js';

/** Keys one replica accepts at most (its sealing key included); older ones are forgotten. */
const MAX_KEYS = 16;
const KEY_BYTES = 32;

/**
 * SYNC: KEYS[1] the sealing key, KEYS[2] the set of accepted keys; ARGV[1] this replica's
 * sealing key, ARGV[2..] every key it accepts (base64). The stored sealing key is kept when
 * present, else ours becomes it (Redis started empty); every replica adds what it accepts to
 * the set. Returns {sealing key, accepted keys}.
 */
const SYNC_SCRIPT = `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
for i = 2, #ARGV do redis.call('SADD', KEYS[2], ARGV[i]) end
return {redis.call('GET', KEYS[1]), redis.call('SMEMBERS', KEYS[2])}`;

/**
 * The cluster's `requestState` keys, agreed through Redis without configuration and kept across
 * Redis restarts: one sealing key (`<prefix>:request-state-key`, created once with SET NX) and
 * the set of keys every replica accepts (`<prefix>:request-state-keys`).
 *
 * After every (re)connection and every `syncMs`, each replica writes its sealing key back with
 * SET NX (so a Redis restarted empty gets the key the running replicas already use, and a
 * replica started later adopts it) and adds the keys it accepts to the set. A replica that finds
 * another sealing key than its own (it sealed alone while Redis was down, or raced a replica
 * that started on the empty Redis) seals with the stored one from then on and keeps accepting
 * its old one, and so does every other replica once it reads the set: a round started on any
 * replica continues on any other.
 */
export class RedisRequestStateKeys implements RequestStateKeys {
  readonly #key: string;
  readonly #set: string;
  #current: Uint8Array;
  #all: Uint8Array[];
  #syncing?: Promise<void>;
  #removeReady?: () => void;
  #timer?: NodeJS.Timeout;

  constructor(
    private readonly link: RedisLink,
    prefix: string,
    private readonly logger: Logger,
    private readonly syncMs: number,
  ) {
    this.#key = `${prefix}:request-state-key`;
    this.#set = `${prefix}:request-state-keys`;
    this.#current = nodeCrypto().randomBytes(KEY_BYTES);
    this.#all = [this.#current];
  }

  /** Agrees on the keys once (when Redis answers), then follows them. */
  async open(): Promise<void> {
    await this.sync();
    if (!this.link.isReady) {
      this.logger.warn(
        'Redis is unreachable: sealing requestState with a key of this replica until it answers ' +
          '(2026-07-28 input rounds started here continue on other replicas once it does).',
      );
    }
    this.#removeReady = this.link.onReady(() => void this.sync());
    this.#timer = setInterval(() => void this.sync(), this.syncMs);
    this.#timer.unref();
  }

  /** The key to seal new `requestState` values with (the cluster's stored one once Redis answered). */
  current(): Uint8Array {
    return this.#current;
  }

  /** Every key an echoed `requestState` may be sealed with, `current()` first (at most 16). */
  all(): readonly Uint8Array[] {
    return this.#all;
  }

  /** One SYNC round (see the class notes); never rejects, does nothing while Redis is down. */
  sync(): Promise<void> {
    this.#syncing ??= this.#sync().finally(() => (this.#syncing = undefined));
    return this.#syncing;
  }

  /** Stops following the keys (the ones known keep working). */
  close(): void {
    clearInterval(this.#timer);
    this.#removeReady?.();
  }

  async #sync(): Promise<void> {
    if (!this.link.isReady) return;
    const encode = (key: Uint8Array) => Buffer.from(key).toString('base64');
    try {
      const [sealing, accepted] = (await this.link.command.eval(SYNC_SCRIPT, {
        keys: [this.#key, this.#set],
        arguments: [encode(this.#current), ...this.#all.map(encode)],
      })) as [string, string[]];
      const known = new Map(this.#all.map((key) => [encode(key), key]));
      for (const text of [...accepted, sealing]) if (!known.has(text)) known.set(text, Buffer.from(text, 'base64'));
      if (sealing !== encode(this.#current)) this.#current = known.get(sealing)!;
      // The sealing key first, then the newest learnt; the oldest beyond MAX_KEYS are dropped.
      const rest = [...known.values()].filter((key) => key !== this.#current).reverse();
      this.#all = [this.#current, ...rest.slice(0, MAX_KEYS - 1)];
    } catch (error) {
      this.logger.debug({ err: error }, 'agreeing on the requestState keys through Redis failed; retried');
    }
  }
}
