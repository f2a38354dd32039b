/** One legacy HTTP session as the cluster-wide listing shows it. */
export interface ClusterSessionInfo {
  /** The `Mcp-Session-Id`. */
  readonly sessionId: string;
  /** Replica holding the session (the one a sticky load balancer must route it to). */
  readonly replicaId: string;
  /** When the session was created, ms since the epoch. */
  readonly createdAt: number;
  /** `now - createdAt` when listed, in ms. */
  readonly ageMs: number;
}

/**
 * The legacy HTTP sessions of every replica, for a settings page or an operator. Each replica
 * records its own sessions and keeps them alive with a heartbeat; the sessions of a replica that
 * stopped heartbeating (crashed, killed) drop out of the listing after the expiry.
 */
export interface SessionDirectory {
  /** Records a session this replica opened. Never throws, never waits for the network. */
  add(sessionId: string, createdAt: number): void;
  /** Forgets a session this replica closed. Never throws, never waits for the network. */
  remove(sessionId: string): void;
  /**
   * Every live session of every replica, oldest first.
   * @throws ClusterUnavailableError when the shared store cannot be reached.
   */
  list(): Promise<ClusterSessionInfo[]>;
}
