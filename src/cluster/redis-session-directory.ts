import { ClusterUnavailableError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ClusterSessionInfo, SessionDirectory } from '../state/session-directory.js';
import type { RedisLink } from './redis-link.js';

/**
 * A {@link SessionDirectory} in Redis. Each replica keeps its sessions in a hash
 * `<prefix>:sessions:<replicaId>` (id -> createdAt) that expires `3 x heartbeatMs` after the
 * replica's last heartbeat, and its heartbeat time in the sorted set `<prefix>:replicas`. A
 * replica killed with SIGKILL stops heartbeating, so its sessions drop out of the listing
 * within the expiry. After a Redis outage the replica writes its whole session map again.
 */
export class RedisSessionDirectory implements SessionDirectory {
  readonly #replicas: string;
  readonly #hash: string;
  readonly #local = new Map<string, number>();
  readonly #ttlMs: number;
  #timer?: NodeJS.Timeout;
  #removeReady?: () => void;

  constructor(
    private readonly link: RedisLink,
    private readonly prefix: string,
    private readonly replicaId: string,
    private readonly heartbeatMs: number,
    private readonly logger: Logger,
  ) {
    this.#replicas = `${prefix}:replicas`;
    this.#hash = `${prefix}:sessions:${replicaId}`;
    this.#ttlMs = heartbeatMs * 3;
  }

  /** Starts the heartbeat (the first one now) and re-publishes the local sessions after each reconnect. */
  start(): void {
    this.#removeReady = this.link.onReady(() => this.#beat(true));
    this.#beat(true);
    this.#timer = setInterval(() => this.#beat(false), this.heartbeatMs);
    this.#timer.unref();
  }

  add(sessionId: string, createdAt: number): void {
    this.#local.set(sessionId, createdAt);
    this.#run((client) =>
      client.multi().hSet(this.#hash, sessionId, String(createdAt)).pExpire(this.#hash, this.#ttlMs).exec(),
    );
  }

  remove(sessionId: string): void {
    this.#local.delete(sessionId);
    this.#run((client) => client.hDel(this.#hash, sessionId));
  }

  async list(): Promise<ClusterSessionInfo[]> {
    if (!this.link.isReady) {
      throw new ClusterUnavailableError(
        `Redis at ${this.link.url} is unreachable: the cluster's sessions cannot be listed.`,
        this.link.url,
      );
    }
    const client = this.link.command;
    const now = Date.now();
    try {
      await client.zRemRangeByScore(this.#replicas, '-inf', now - this.#ttlMs);
      const replicas = await client.zRange(this.#replicas, 0, -1);
      const hashes = await Promise.all(replicas.map((id) => client.hGetAll(`${this.prefix}:sessions:${id}`)));
      const sessions = replicas.flatMap((replicaId, i) =>
        Object.entries(hashes[i] ?? {}).map(([sessionId, created]) => {
          const createdAt = Number(created);
          return { sessionId, replicaId, createdAt, ageMs: Math.max(0, now - createdAt) };
        }),
      );
      return sessions.sort((a, b) => a.createdAt - b.createdAt || a.sessionId.localeCompare(b.sessionId));
    } catch (error) {
      throw new ClusterUnavailableError(
        `Listing the cluster's sessions failed: ${(error as Error).message}`,
        this.link.url,
        {
          cause: error,
        },
      );
    }
  }

  /** Stops the heartbeat and removes this replica from the listing (best effort). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#removeReady?.();
    this.#local.clear();
    if (!this.link.isReady) return;
    await this.link.command
      .multi()
      .del(this.#hash)
      .zRem(this.#replicas, this.replicaId)
      .exec()
      .catch(() => undefined);
  }

  /** Heartbeat: refresh the expiry and the replica's time; `full` rewrites every local session. */
  #beat(full: boolean): void {
    this.#run((client) => {
      const multi = client.multi().zAdd(this.#replicas, { score: Date.now(), value: this.replicaId });
      if (full) {
        multi.del(this.#hash);
        if (this.#local.size > 0) {
          multi.hSet(this.#hash, Object.fromEntries([...this.#local].map(([id, at]) => [id, String(at)])));
        }
      }
      return multi.pExpire(this.#hash, this.#ttlMs).exec();
    });
  }

  /** Runs a write when Redis is up; failures are logged at debug (the next heartbeat repairs). */
  #run(write: (client: RedisLink['command']) => Promise<unknown>): void {
    if (!this.link.isReady) return;
    write(this.link.command).catch((error: unknown) =>
      this.logger.debug({ err: error }, 'session directory write failed'),
    );
  }
}
