import type { ChangeBus } from './change-bus.js';
import type { SessionDirectory } from './session-directory.js';
import type { TaskStore } from '../tasks/task-store.js';
import type { ToolStateStore } from './tool-state-store.js';

/**
 * What a server needs to act as one replica of several serving one MCP endpoint (pass it as
 * the server's `cluster` option). Made by `createCluster()` (Redis, `src/cluster/`); any other
 * shared backend can implement it.
 *
 * - `toolState`: the disabled set, shared and pushed (used unless the server gets its own `toolState`);
 * - `changes`: resource-updated and prompt/resource list-changed notifications between replicas;
 * - `sessions`: the cluster-wide listing of legacy HTTP sessions;
 * - `requestStateKey`: the HMAC key sealing 2026-07-28 `requestState`, the same on every replica
 *   so an input round started on one replica continues on any other;
 * - `tasks`: the shared MCP task store (used unless the server's `tasks.store` is given), so a
 *   task started on one replica is polled and cancelled on any other.
 */
export interface ClusterMembership {
  /** This replica's id, unique in the cluster (shown in the session listing). */
  readonly replicaId: string;
  readonly toolState: ToolStateStore;
  readonly changes: ChangeBus;
  readonly sessions: SessionDirectory;
  readonly tasks?: TaskStore;
  /** >= 32 bytes, identical on every replica. */
  readonly requestStateKey: Uint8Array;
  /** Leaves the cluster: stops heartbeats, removes this replica's sessions, closes connections. Idempotent. */
  close(): Promise<void>;
}
