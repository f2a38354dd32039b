import type { Express } from 'express';

/** Body of the readiness route (`GET /ready` by default). */
export interface ReadinessReport {
  /** `ready` while the server is running (HTTP 200), else `not-ready` (HTTP 503). */
  status: 'ready' | 'not-ready';
  /** `sessions` (legacy clients get sessions) or `stateless`. */
  mode: 'sessions' | 'stateless';
  /** Live legacy sessions. */
  sessions: number;
  /** Protocol revisions served on the MCP endpoint, newest first (2026-07-28, then the handshake revisions). */
  protocolVersions: readonly string[];
  /**
   * The upstream servers of a gateway (`addUpstream`), when it has any: each one's name, state
   * (`connected`, `connecting`, `retrying`, `closed`) and tool count. A down upstream does not make
   * the server not-ready: its other tools are served.
   */
  upstreams?: ReadonlyArray<{ name: string; state: string; tools: number }>;
}

/**
 * Mounts the liveness route (answers 200 `{ status: 'ok' }` while the process
 * serves HTTP at all) and the readiness route (200 with a {@link ReadinessReport}
 * while running, 503 before `start()` completes and while stopping). A path of
 * `false` leaves that route out.
 */
export function mountHealthRoutes(
  app: Express,
  paths: { healthPath: string | false; readyPath: string | false },
  readiness: () => ReadinessReport,
): void {
  if (paths.healthPath !== false) {
    app.get(paths.healthPath, (_req, res) => {
      res.json({ status: 'ok' });
    });
  }
  if (paths.readyPath !== false) {
    app.get(paths.readyPath, (_req, res) => {
      const report = readiness();
      res.status(report.status === 'ready' ? 200 : 503).json(report);
    });
  }
}
