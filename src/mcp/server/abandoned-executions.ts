import type { RequestId } from '@modelcontextprotocol/server';
import type { ToolAbortReason } from '../../errors.js';
import type { Logger } from '../../logger.js';

/** A tool whose call was aborted but whose `execute` has not returned yet. */
export interface AbandonedExecution {
  readonly toolName: string;
  readonly requestId: RequestId;
  /** Why the call was aborted (`timeout`, `cancelled`, `disconnected`, `shutdown`). */
  readonly reason: ToolAbortReason;
  /** `performance.now()` when the call was answered without it. */
  readonly abortedAt: number;
}

/** How long {@link AbandonedExecutions.reportAfterStop} lets aborted tools finish before naming them (ms). */
export const ABANDONED_SETTLE_MS = 200;

/**
 * The `execute` promises that outlived their call: the call was answered (timed out, cancelled,
 * its connection closed, the server stopped) but the tool ignored `context.signal` (llm-chat tools
 * never see it) and still runs. Node cannot cancel another module's timers or sockets, so such a
 * tool keeps the process alive until it returns; this list lets `stop()` say so instead of the
 * process lingering without a word.
 */
export class AbandonedExecutions {
  readonly #running = new Map<PromiseLike<unknown>, AbandonedExecution>();
  #settledWaiters = new Set<() => void>();

  /** Tracks `execution` until it settles. */
  add(execution: PromiseLike<unknown>, info: Omit<AbandonedExecution, 'abortedAt'>): void {
    if (this.#running.has(execution)) return;
    this.#running.set(execution, { ...info, abortedAt: performance.now() });
    const done = () => {
      this.#running.delete(execution);
      if (this.#running.size === 0) for (const wake of this.#settledWaiters) wake();
    };
    execution.then(done, done);
  }

  /** The aborted tools still running, oldest first. */
  list(): AbandonedExecution[] {
    return [...this.#running.values()];
  }

  /**
   * Run at the end of `stop()`: waits up to {@link ABANDONED_SETTLE_MS} for aborted tools to
   * return, then logs one warning naming each one still running (tool, request id, abort reason,
   * seconds since) and why the process may stay alive. Silent when none is left. The wait holds the
   * event loop: a tool may hold nothing (a promise that never settles), and an app awaiting `stop()`
   * at its top level would then end with exit code 13 (an unsettled top-level await).
   */
  async reportAfterStop(logger: Logger): Promise<void> {
    if (this.#running.size === 0) return;
    let wake!: () => void;
    const settled = new Promise<void>((resolve) => (wake = resolve));
    this.#settledWaiters.add(wake);
    const timer = setTimeout(wake, ABANDONED_SETTLE_MS);
    await settled;
    clearTimeout(timer);
    this.#settledWaiters.delete(wake);
    const left = this.list();
    if (left.length === 0) return;
    const now = performance.now();
    const calls = left.map((call) => ({
      tool: call.toolName,
      requestId: call.requestId,
      reason: call.reason,
      abortedSecondsAgo: Number(((now - call.abortedAt) / 1000).toFixed(1)),
    }));
    const names = calls.map((call) => `${call.tool} (request ${call.requestId}, ${call.reason})`).join(', ');
    logger.warn(
      { calls },
      `stop(): ${left.length} aborted tool call(s) still running: ${names}. They ignore context.signal, and Node ` +
        'cannot cancel their timers or sockets, so the process stays alive until they return. Pass ' +
        'context.signal on (fetch(url, { signal })), or end the process (the mcp-toolkit CLI does after a grace period).',
    );
  }
}
