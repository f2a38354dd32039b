/**
 * Server-wide rules for MCP tasks (MCP "Basic / Utilities / Tasks", 2025-11-25, and the tasks
 * extension SEP-2663, 2026-07-28). Every field is optional; {@link resolveTaskPolicy} fills in
 * the defaults. Durations are milliseconds.
 */
export interface TaskPolicy {
  /** Lifetime of a task from its creation when the client asks for none (ms). Default 3,600,000 (1 h). */
  defaultTtlMs?: number;
  /** Upper bound on any task's lifetime; a longer requested `ttl` is cut to this (ms). Default 86,400,000 (24 h). */
  maxTtlMs?: number;
  /** `pollInterval` / `pollIntervalMs` hint sent with every task (ms). Default 1,000. */
  pollIntervalMs?: number;
  /**
   * After a task ends, keep its result at least this long even when its TTL is nearly
   * over, so a client polling at `pollIntervalMs` still fetches it (ms). Default 60,000.
   */
  resultRetentionMs?: number;
  /**
   * Most tasks running at once (not yet terminal) for one principal in this process; a
   * `tools/call` beyond it is refused with JSON-RPC -32602 naming the limit. Default 100.
   */
  maxTasksPerPrincipal?: number;
  /** Most tasks running at once in this process, all principals together. Default 10,000. */
  maxTasks?: number;
  /**
   * 2026-07-28 only: how long a task-capable call may run before the server answers with a
   * task (ms). A call that finishes sooner, or asks for input sooner (multi-round-trip
   * `input_required`), is answered directly, as SEP-2663 allows. `0` (default): every
   * task-capable call from a client that opted in becomes a task at once. A tool can set its
   * own value (`taskAfterMs`). On 2025-11-25 a `task` parameter always gets a task at once,
   * as that revision requires.
   */
  taskAfterMs?: number;
  /** How often expired tasks are deleted from the store (ms). Default 1,000. */
  sweepIntervalMs?: number;
}

/** {@link TaskPolicy} with every default applied. */
export type ResolvedTaskPolicy = Required<TaskPolicy>;

/** Fills in the defaults; throws `RangeError` for a negative or non-finite duration or a limit below 1. */
export function resolveTaskPolicy(policy: TaskPolicy = {}): ResolvedTaskPolicy {
  const resolved: ResolvedTaskPolicy = {
    defaultTtlMs: policy.defaultTtlMs ?? 3_600_000,
    maxTtlMs: policy.maxTtlMs ?? 86_400_000,
    pollIntervalMs: policy.pollIntervalMs ?? 1_000,
    resultRetentionMs: policy.resultRetentionMs ?? 60_000,
    maxTasksPerPrincipal: policy.maxTasksPerPrincipal ?? 100,
    maxTasks: policy.maxTasks ?? 10_000,
    taskAfterMs: policy.taskAfterMs ?? 0,
    sweepIntervalMs: policy.sweepIntervalMs ?? 1_000,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`tasks.${name} must be a finite number >= 0.`);
  }
  for (const name of ['maxTasksPerPrincipal', 'maxTasks', 'pollIntervalMs', 'defaultTtlMs'] as const) {
    if (resolved[name] < 1) throw new RangeError(`tasks.${name} must be at least 1.`);
  }
  return resolved;
}

/** The lifetime a new task gets (integer ms): the requested one (or the default), at most `maxTtlMs`. */
export function taskTtl(policy: ResolvedTaskPolicy, requestedMs: number | null | undefined): number {
  const wanted = typeof requestedMs === 'number' && requestedMs > 0 ? requestedMs : policy.defaultTtlMs;
  return Math.max(1, Math.round(Math.min(wanted, policy.maxTtlMs)));
}
