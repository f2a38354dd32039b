import type { RedisClientType } from 'redis';
import { ClusterUnavailableError } from '../errors.js';
import { importOptional } from '../lazy-module.js';
import type { Logger } from '../logger.js';

/** A node-redis client (the `redis` package, RESP3 by default), connected or not. */
export type RedisClient = RedisClientType;

/** How {@link RedisLink} connects. */
export interface RedisLinkOptions {
  /** `redis[s]://[[user][:password]@]host[:port][/db]`, or a node-redis client (not closed by us). */
  readonly redis: string | RedisClient;
  /** How long to wait for the first connection, in ms. */
  readonly connectTimeoutMs: number;
  /** `'fail'`: throw when Redis is not reachable in time; `'local'`: warn and keep trying in the background. */
  readonly onUnavailable: 'fail' | 'local';
  readonly logger: Logger;
}

/** Backoff between reconnect attempts: 50 ms doubling up to 2 s, forever. */
const reconnectStrategy = (retries: number) => Math.min(50 * 2 ** retries, 2_000);

/** The URL without its password, for messages. */
function describe(redis: string | RedisClient): string {
  const url = typeof redis === 'string' ? redis : (redis.options?.url ?? 'redis://(client)');
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

/**
 * The two Redis connections of one replica: `command` for reads, writes and PUBLISH, and
 * `subscriber` (its duplicate) for SUBSCRIBE, as RESP pub/sub requires a connection of its own.
 * Commands fail fast while disconnected (`disableOfflineQueue`), so nothing ever waits on a
 * Redis outage; node-redis reconnects forever and re-subscribes by itself, and every
 * `onReady` callback runs after each (re)connection of either client so that stores can
 * reconcile what they missed.
 */
export class RedisLink {
  readonly command: RedisClient;
  readonly subscriber: RedisClient;
  readonly url: string;
  readonly #owned: RedisClient[] = [];
  readonly #readyListeners = new Set<() => void>();
  readonly #lostListeners = new Set<() => void>();
  readonly #handlers = new Map<string, (message: string) => void>();
  readonly #subscribed = new Set<string>();
  /** Until the first connection, failures are reported by `open()`, not as a lost connection. */
  #down = true;
  #everReady = false;
  #firstTry = true;
  #closed = false;

  private constructor(
    command: RedisClient,
    private readonly logger: Logger,
    url: string,
  ) {
    this.url = url;
    this.command = command;
    this.subscriber = command.duplicate({ disableOfflineQueue: true, socket: { reconnectStrategy } } as never);
    this.#owned.push(this.subscriber);
    for (const client of [this.command, this.subscriber]) {
      client.on('error', (error: Error) => this.#lost(error));
      client.on('ready', () => void this.#ready());
    }
  }

  /**
   * Connects both clients, waiting at most `connectTimeoutMs`.
   * @throws ClusterUnavailableError when Redis is not reachable in time and `onUnavailable` is `'fail'`.
   */
  static async open(options: RedisLinkOptions): Promise<RedisLink> {
    const url = describe(options.redis);
    // Loaded on first use: apps that never join a cluster do not pay for node-redis at import, and
    // need not install it (an optional peer dependency).
    const { createClient } = await importOptional<typeof import('redis')>(
      'redis',
      'createCluster() (mcp-toolkit/cluster)',
    );
    const command =
      typeof options.redis === 'string'
        ? (createClient({
            url: options.redis,
            disableOfflineQueue: true,
            socket: { reconnectStrategy, connectTimeout: Math.max(500, options.connectTimeoutMs) },
          }) as RedisClient)
        : options.redis;
    const link = new RedisLink(command, options.logger, url);
    if (typeof options.redis === 'string') link.#owned.push(command);
    const connecting = Promise.all(
      link.#owned.filter((client) => !client.isOpen).map((client) => client.connect().catch(() => undefined)),
    );
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      connecting.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), options.connectTimeoutMs))),
    ]);
    clearTimeout(timer);
    if (!timedOut && link.isReady) return link;
    if (options.onUnavailable === 'fail') {
      await link.close();
      throw new ClusterUnavailableError(
        `Redis at ${url} did not answer within ${options.connectTimeoutMs} ms. Start redis-server (Debian: apt-get ` +
          `install redis-server), check the URL, or pass onUnavailable: 'local' to start with local state.`,
        url,
      );
    }
    link.#firstTry = false;
    options.logger.warn(
      { redis: url },
      'Redis is unreachable: starting with local state; this replica joins the cluster when Redis answers.',
    );
    return link;
  }

  /** True while both connections are up. */
  get isReady(): boolean {
    return this.command.isReady && this.subscriber.isReady;
  }

  /** Runs `listener` after every (re)connection; returns its remover. */
  onReady(listener: () => void): () => void {
    this.#readyListeners.add(listener);
    return () => this.#readyListeners.delete(listener);
  }

  /** Runs `listener` each time a connection is lost (once per outage); returns its remover. */
  onLost(listener: () => void): () => void {
    this.#lostListeners.add(listener);
    return () => this.#lostListeners.delete(listener);
  }

  /** Subscribes `handler` to `channel` (one handler per channel). Resolves once subscribed, or at once while down. */
  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    this.#handlers.set(channel, handler);
    await this.#subscribe(channel);
  }

  /** SUBSCRIBE once per channel; node-redis itself replays it after a reconnect. Made on the next `ready` when down. */
  async #subscribe(channel: string): Promise<void> {
    if (this.#subscribed.has(channel) || !this.subscriber.isReady) return;
    this.#subscribed.add(channel);
    try {
      await this.subscriber.subscribe(channel, (message) => this.#handlers.get(channel)?.(message));
    } catch {
      this.#subscribed.delete(channel);
    }
  }

  /** Closes the connections this link opened (a client passed in stays open for its owner). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#readyListeners.clear();
    this.#lostListeners.clear();
    await Promise.allSettled(this.#owned.map((client) => (client.isOpen ? client.close() : client.destroy())));
  }

  #lost(error: Error): void {
    if (this.#closed || this.#down) return;
    this.#down = true;
    this.logger.warn(
      { err: error, redis: this.url },
      'Redis connection lost: serving with the last known state; changes made here apply here now and are merged into the cluster when it returns.',
    );
    for (const listener of [...this.#lostListeners]) listener();
  }

  async #ready(): Promise<void> {
    if (this.#closed || !this.isReady) return;
    if (this.#down && this.#everReady) {
      this.logger.info({ redis: this.url }, 'Redis connection re-established; reconciling state.');
    } else if (this.#down && !this.#firstTry) {
      this.logger.info({ redis: this.url }, 'Redis answers now: joining the cluster.');
    }
    this.#down = false;
    this.#everReady = true;
    await Promise.all([...this.#handlers.keys()].map((channel) => this.#subscribe(channel)));
    for (const listener of [...this.#readyListeners]) {
      try {
        listener();
      } catch (error) {
        this.logger.error({ err: error }, 'cluster reconnect handler failed');
      }
    }
  }
}
