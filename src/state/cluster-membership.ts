import type { ChangeBus } from './change-bus.js';
import type { SessionDirectory } from './session-directory.js';
import type { TaskStore } from '../tasks/store/task-store.js';
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
  /** >= 32 bytes, identical on every replica (the sealing key when the membership started). */
  readonly requestStateKey: Uint8Array;
  /**
   * When the keys can change while serving (e.g. agreed through Redis and kept across its
   * restarts): the key to seal with now and every key to accept. Used instead of `requestStateKey`.
   */
  readonly requestStateKeys?: RequestStateKeys;
  /** Whether the shared backend answers, and what waits for it (the settings page shows it). */
  status?(): ClusterStatus;
  /** Calls `listener` with the new status each time the backend is lost or answers again. Returns its remover. */
  onStatus?(listener: (status: ClusterStatus) => void): () => void;
  /** Leaves the cluster: stops heartbeats, removes this replica's sessions, closes connections. Idempotent. */
  close(): Promise<void>;
}

/** A replica's view of its cluster backend (Redis), from {@link ClusterMembership.status}. */
export interface ClusterStatus {
  /** True while the backend answers; false while this replica serves with its last known state. */
  readonly reachable: boolean;
  /** When `reachable` last changed (or the membership started), ms since the epoch. */
  readonly since: number;
  /** The backend's address, without a password (e.g. `redis://10.0.0.5:6379`). */
  readonly url: string;
  /**
   * Tool toggles this replica acknowledged that the backend has not confirmed yet: they apply
   * here now and are merged into the shared state when it answers (docs/scaling.md).
   */
  readonly unconfirmedChanges: number;
  /** Resource / list-changed notifications waiting to reach the other replicas' clients. */
  readonly heldChanges: number;
}

/** Keys sealing 2026-07-28 `requestState` that may change while a server runs (each >= 32 bytes). */
export interface RequestStateKeys {
  /** The key new `requestState` values are sealed with. */
  current(): Uint8Array;
  /** Every key an echoed `requestState` may be sealed with, `current()` first. */
  all(): readonly Uint8Array[];
}
