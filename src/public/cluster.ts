/**
 * `mcp-toolkit/cluster`: several replicas serving one endpoint (docs/scaling.md). `createCluster()`
 * returns a {@link ClusterMembership} for the server's `cluster` option, backed by Redis.
 *
 * Needs the `redis` package (an optional peer dependency): `npm install redis`. Importing this
 * entry does not load it; `createCluster()` does, and throws `ClusterUnavailableError` naming the
 * package when it is not installed.
 */
export { createCluster, type ClusterOptions, type RedisCluster } from '../cluster/create-cluster.js';
export { RedisToolStateStore } from '../cluster/redis-tool-state-store.js';
export { RedisChangeBus } from '../cluster/redis-change-bus.js';
export { RedisSessionDirectory } from '../cluster/redis-session-directory.js';
export { RedisTaskStore, type TaskLeaseOptions } from '../cluster/redis-task-store.js';
export { RedisRequestStateKeys } from '../cluster/request-state-keys.js';
export { RedisLink, type RedisClient } from '../cluster/redis-link.js';
export { ClusterUnavailableError } from '../errors.js';
export type { ClusterMembership, ClusterStatus, RequestStateKeys } from '../state/cluster-membership.js';
export type { ChangeBus, ClusterChange } from '../state/change-bus.js';
export type { SessionDirectory, ClusterSessionInfo } from '../state/session-directory.js';
