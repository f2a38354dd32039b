import { createDefaultLogger, type Logger } from '../logger.js';
import type { ClusterMembership, ClusterStatus } from '../state/cluster-membership.js';
import { invalidOptionValue } from '../option-values.js';
import { checkClusterOptions } from './cluster-options.js';
import { RedisChangeBus } from './redis-change-bus.js';
import { RedisLink, type RedisClient } from './redis-link.js';
import { RedisSessionDirectory } from './redis-session-directory.js';
import { RedisTaskStore } from './redis-task-store.js';
import { RedisToolStateStore } from './redis-tool-state-store.js';
import { RedisRequestStateKeys } from './request-state-keys.js';
import { nodeCrypto, nodeOs } from '../lazy-module.js';

/** Options of {@link createCluster}. */
export interface ClusterOptions {
  /**
   * Redis: a URL `redis[s]://[[user][:password]@]host[:port][/db]`, or a node-redis client
   * (`createClient()` from the `redis` package; connected or not; left open by `close()`).
   */
  readonly redis: string | RedisClient;
  /** Prefix of every key and channel, so several clusters can share one Redis. Default `mcp-toolkit`. */
  readonly prefix?: string;
  /** This replica's id, unique in the cluster. Default `<hostname>-<pid>-<4 random hex>`. */
  readonly replicaId?: string;
  /**
   * What to do when Redis does not answer within `connectTimeoutMs` at start: `'fail'` (default)
   * throws `ClusterUnavailableError`; `'local'` logs a warning, serves with local state and joins
   * the cluster (reconciling) once Redis answers.
   */
  readonly onUnavailable?: 'fail' | 'local';
  /** How long to wait for Redis at start, in ms. Default 5000. */
  readonly connectTimeoutMs?: number;
  /**
   * The key sealing 2026-07-28 `requestState` (>= 32 bytes; a string is taken as UTF-8). Default:
   * keys agreed through Redis, with no configuration, and kept across Redis restarts (see
   * `RedisRequestStateKeys`): a round started on any replica continues on any other. Pass one
   * only to pin it yourself (e.g. rounds that must survive restarting every replica at once).
   */
  readonly requestStateKey?: Uint8Array | string;
  /**
   * Heartbeat period, in ms (default 5000): a replica's sessions leave the listing and its
   * unfinished tasks become `failed` after 3 missed beats (tasks within 4 beats: the sweep runs
   * every beat); the `requestState` keys are re-agreed every beat.
   */
  readonly heartbeatMs?: number;
  /** Where cluster diagnostics go. Default: the toolkit's stderr logger. */
  readonly logger?: Logger;
}

/** A cluster membership on Redis; see {@link createCluster}. */
export interface RedisCluster extends ClusterMembership {
  status(): ClusterStatus;
  onStatus(listener: (status: ClusterStatus) => void): () => void;
  readonly toolState: RedisToolStateStore;
  readonly changes: RedisChangeBus;
  readonly sessions: RedisSessionDirectory;
  readonly tasks: RedisTaskStore;
  /** The replica's Redis connections (for health checks; do not close them yourself). */
  readonly link: RedisLink;
}

const MIN_KEY_BYTES = 32;

function toKey(key: Uint8Array | string): Uint8Array {
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  if (bytes.length < MIN_KEY_BYTES) {
    throw invalidOptionValue(
      'createCluster() option',
      'requestStateKey',
      `at least ${MIN_KEY_BYTES} bytes`,
      `${bytes.length} bytes`,
    );
  }
  return bytes;
}

/**
 * Joins (or starts) a cluster of replicas sharing one model through Redis, and returns the
 * membership to pass as the server's `cluster` option:
 *
 * - the disabled-tool set in Redis, versioned, every change published and applied by every
 *   replica, each telling its own clients once ({@link RedisToolStateStore});
 * - resource-updated and prompt/resource list-changed notifications raised by the app on one
 *   replica reach the clients of every replica ({@link RedisChangeBus});
 * - the 2026-07-28 `requestState` keys, agreed on by every replica and kept across Redis restarts;
 * - the legacy HTTP sessions of every replica, listed with expiry ({@link RedisSessionDirectory});
 * - MCP tasks ({@link RedisTaskStore}): a task started on one replica is polled, answered and
 *   cancelled on any other, and a cancel reaches the replica running the work.
 *
 * Client: the official `redis` package (node-redis). Nothing on a request's path waits for
 * Redis: while it is down every replica serves with its last known state; see `docs/scaling.md`.
 *
 * @example
 * const cluster = await createCluster({ redis: 'redis://127.0.0.1:6379', prefix: 'my-app' });
 * const server = new HttpMcpServer({ name: 'app', version: '1.0.0' }, { cluster });
 * await server.start(); // server.stop() closes the cluster membership too
 *
 * @throws ClusterUnavailableError when Redis does not answer within `connectTimeoutMs` and
 *   `onUnavailable` is `'fail'`.
 * @throws InvalidOptionsError when `requestStateKey` is shorter than 32 bytes, another option has the wrong type or
 *   range, or an option is unknown.
 */
export async function createCluster(options: ClusterOptions): Promise<RedisCluster> {
  checkClusterOptions(options);
  const prefix = options.prefix ?? 'mcp-toolkit';
  const replicaId =
    options.replicaId ?? `${nodeOs().hostname()}-${process.pid}-${nodeCrypto().randomBytes(2).toString('hex')}`;
  const logger = (options.logger ?? createDefaultLogger()).child({ replicaId });
  const ownKey = options.requestStateKey === undefined ? undefined : toKey(options.requestStateKey);
  const link = await RedisLink.open({
    redis: options.redis,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    onUnavailable: options.onUnavailable ?? 'fail',
    logger,
  });
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const keys = ownKey ? undefined : new RedisRequestStateKeys(link, prefix, logger, heartbeatMs);
  await keys?.open();
  const toolState = new RedisToolStateStore(link, prefix, replicaId, logger);
  const changes = new RedisChangeBus(link, prefix, logger);
  await changes.open();
  const tasks = new RedisTaskStore(link, prefix, logger, { replicaId, heartbeatMs });
  await tasks.open();
  const sessions = new RedisSessionDirectory(link, prefix, replicaId, heartbeatMs, logger);
  sessions.start();
  const watchers = new Set<(status: ClusterStatus) => void>();
  let since = Date.now();
  let reachable = link.isReady;
  const status = (): ClusterStatus => ({
    reachable,
    since,
    url: link.url,
    unconfirmedChanges: toolState.unconfirmedChanges,
    heldChanges: changes.heldChanges,
  });
  const flipped = (now: boolean) => {
    if (now === reachable) return;
    reachable = now;
    since = Date.now();
    const current = status();
    for (const watcher of [...watchers]) watcher(current);
  };
  const removers = [link.onLost(() => flipped(false)), link.onReady(() => flipped(true))];
  let closing: Promise<void> | undefined;
  return {
    replicaId,
    toolState,
    changes,
    sessions,
    tasks,
    requestStateKey: ownKey ?? keys!.current(),
    ...(keys && { requestStateKeys: keys }),
    link,
    status,
    onStatus: (listener) => (watchers.add(listener), () => watchers.delete(listener)),
    close: () =>
      (closing ??= (async () => {
        for (const remove of removers) remove();
        watchers.clear();
        await toolState.close();
        changes.close();
        keys?.close();
        await tasks.close();
        await sessions.close();
        await link.close();
      })()),
  };
}
