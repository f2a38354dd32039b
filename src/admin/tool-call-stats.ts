/** Durations kept per tool for the percentiles (the most recent ones). */
const WINDOW = 512;
/** Seconds of calls-per-second history. */
export const TIMELINE_SECONDS = 60;

/** Call statistics of one tool, as the admin API returns them; durations in ms. */
export interface ToolCallStatistics {
  /**
   * Finished calls since the router was created. A 2026-07-28 call answered over input rounds
   * (`input_required`, then the client's retries) is one call, counted when its last round ends.
   */
  readonly count: number;
  /** Of those, calls that ended with `isError: true` or threw (aborted calls are not errors). */
  readonly errors: number;
  /**
   * Of those, calls that were aborted: cancelled by the client, timed out (`timeoutMs`), their
   * connection closed, or the server stopped. Counted apart, since nothing in the tool failed.
   */
  readonly aborted: number;
  /** Median duration of the last 512 calls (ms; a multi-round call's last round), or null before the first call. */
  readonly p50Ms: number | null;
  /** 95th percentile duration of the last 512 calls (ms), or null before the first call. */
  readonly p95Ms: number | null;
  /** When the last call finished (epoch ms), or null. */
  readonly lastCallAt: number | null;
}

/** One second of the timeline: `t` is the second's start (epoch ms). */
export interface TimelinePoint {
  readonly t: number;
  readonly calls: number;
  readonly errors: number;
}

/** How one call ended, for the statistics. */
export type CallOutcome = 'ok' | 'error' | 'aborted';

class ToolEntry {
  count = 0;
  errors = 0;
  aborted = 0;
  lastCallAt = 0;
  readonly durations = new Float64Array(WINDOW);

  record(durationMs: number, outcome: CallOutcome, now: number): void {
    this.durations[this.count % WINDOW] = durationMs;
    this.count += 1;
    if (outcome === 'error') this.errors += 1;
    else if (outcome === 'aborted') this.aborted += 1;
    this.lastCallAt = now;
  }

  statistics(): ToolCallStatistics {
    const kept = Math.min(this.count, WINDOW);
    if (kept === 0) return { count: 0, errors: 0, aborted: 0, p50Ms: null, p95Ms: null, lastCallAt: null };
    const sorted = this.durations.slice(0, kept).sort();
    const at = (q: number) => Math.round(sorted[Math.min(kept - 1, Math.ceil(q * kept) - 1)]! * 100) / 100;
    const { count, errors, aborted, lastCallAt } = this;
    return { count, errors, aborted, p50Ms: at(0.5), p95Ms: at(0.95), lastCallAt };
  }
}

/**
 * Tool call statistics fed by the server's `toolCallFinished` events: per tool a count, an
 * error count, an aborted count and the durations of its last 512 calls (percentiles computed when asked), plus
 * a ring of per-second totals for the last 60 s. Recording is O(1) with no allocation.
 */
export class ToolCallStats {
  readonly #tools = new Map<string, ToolEntry>();
  readonly #calls = new Uint32Array(TIMELINE_SECONDS);
  readonly #errors = new Uint32Array(TIMELINE_SECONDS);
  readonly #seconds = new Float64Array(TIMELINE_SECONDS);

  /** Records one finished call: `durationMs` in ms, `now` in epoch ms. */
  record(name: string, durationMs: number, outcome: CallOutcome, now = Date.now()): void {
    let entry = this.#tools.get(name);
    if (!entry) {
      entry = new ToolEntry();
      this.#tools.set(name, entry);
    }
    entry.record(durationMs, outcome, now);
    const second = Math.floor(now / 1000);
    const slot = second % TIMELINE_SECONDS;
    if (this.#seconds[slot] !== second) {
      this.#seconds[slot] = second;
      this.#calls[slot] = 0;
      this.#errors[slot] = 0;
    }
    this.#calls[slot]! += 1;
    if (outcome === 'error') this.#errors[slot]! += 1;
  }

  /** Statistics of one tool (zeros when it was never called). */
  of(name: string): ToolCallStatistics {
    return (this.#tools.get(name) ?? new ToolEntry()).statistics();
  }

  /** Calls and errors per second for the last 60 seconds, oldest first (the current second last). */
  timeline(now = Date.now()): TimelinePoint[] {
    const current = Math.floor(now / 1000);
    const points: TimelinePoint[] = [];
    for (let second = current - TIMELINE_SECONDS + 1; second <= current; second += 1) {
      const slot = second % TIMELINE_SECONDS;
      const live = this.#seconds[slot] === second;
      points.push({ t: second * 1000, calls: live ? this.#calls[slot]! : 0, errors: live ? this.#errors[slot]! : 0 });
    }
    return points;
  }
}
