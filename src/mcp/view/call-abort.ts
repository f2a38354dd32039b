import { ToolCallAbortedError } from '../../errors.js';
import { followSignal } from '../../registry/context-abort.js';
import { AbortFollowers } from '../sdk-internals/lazy-request-abort.js';

/** A request's abort that can be followed without an `AbortSignal` (`sdk-internals/lazy-request-abort.ts`). */
export interface FollowableAbort {
  readonly aborted: boolean;
  follow(listener: () => void): () => void;
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * The abort side of one tool call: the signal a tool sees as `context.signal`, aborted
 * (the first reason wins) when the client cancels the request, when the connection closes
 * during the call, or when the tool's `timeoutMs` passes; `execute` is raced against it.
 *
 * Cost (profiled on a stdio `tools/call`, Node 20): creating an `AbortSignal` and adding
 * the first listener to one each cost several µs, a sizeable part of a whole call. So the
 * tool's signal is created only when the tool reads `context.signal` (already aborted if
 * the call was), the request's signal is listened to only once `execute` has returned a
 * pending promise (a synchronous `execute` cannot be interrupted: nothing aborts while it
 * runs), and the race is settled directly by {@link abort}, not by a listener.
 */
export class CallAbort {
  #controller: AbortController | undefined;
  #reason: ToolCallAbortedError | undefined;
  readonly #upstream: AbortSignal | FollowableAbort;
  readonly #upstreamReason: () => ToolCallAbortedError;
  #onUpstream?: () => void;
  #unfollowUpstream?: () => void;
  #reject?: (reason: unknown) => void;
  /** Followers of the abort (see {@link follow}): called as the signal's `abort` listeners would be. */
  #followers: AbortFollowers | undefined;
  /** The tool's own promise while it has not settled (it may outlive an aborted call). */
  #pending: PromiseLike<unknown> | undefined;

  /**
   * @param upstream - the request's signal, or its lazy abort (aborted by the SDK on cancellation or disconnection).
   * @param upstreamReason - why the call ends when `upstream` aborts (read at that moment).
   */
  constructor(upstream: AbortSignal | FollowableAbort, upstreamReason: () => ToolCallAbortedError) {
    this.#upstream = upstream;
    this.#upstreamReason = upstreamReason;
    if (upstream.aborted) this.abort(upstreamReason());
  }

  /** The tool's `context.signal` (made on first use). */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#reason) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * The promise `execute` returned, while it has not settled: after an abort, a tool that
   * ignores the signal still runs (see `AbandonedExecutions`). Undefined for a synchronous tool.
   */
  get pendingExecution(): PromiseLike<unknown> | undefined {
    return this.#pending;
  }

  /** Whether the call was aborted (without making its signal). */
  get aborted(): boolean {
    return this.#reason !== undefined;
  }

  /** Why the call was aborted (the first reason), or undefined. */
  get reason(): ToolCallAbortedError | undefined {
    return this.#reason;
  }

  /** Aborts the call with `reason` unless it was already aborted. */
  abort(reason: ToolCallAbortedError): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#followers?.fire();
    this.#reject?.(reason);
  }

  /**
   * Calls `listener` when the call is aborted, as an `abort` listener on {@link signal} would be
   * (not when it is aborted already), without making the signal: a forwarded call (#27) follows
   * the abort on every call, where a signal would cost several µs. Returns the way to stop.
   */
  follow(listener: () => void): () => void {
    if (this.#reason) return () => {};
    return (this.#followers ??= new AbortFollowers()).add(listener);
  }

  /**
   * Runs `execute`; a pending result is raced against {@link abort} (cancellation,
   * disconnection, `timeoutMs`). A value returned synchronously is returned as it is, and
   * a synchronous throw is thrown, so a synchronous tool costs no promise here.
   */
  run<T>(
    execute: () => T | PromiseLike<T>,
    timeoutMs: number | undefined,
    timeoutReason: () => ToolCallAbortedError,
  ): T | Promise<T> {
    const started = timeoutMs === undefined ? 0 : performance.now();
    const returned = execute();
    // The timeout counts from the call's start, its synchronous part included: a tool that
    // overran it synchronously is timed out even though nothing could interrupt it.
    const remainingMs = timeoutMs === undefined ? undefined : timeoutMs - (performance.now() - started);
    if (remainingMs !== undefined && remainingMs <= 0) this.abort(timeoutReason());
    if (!isThenable(returned)) {
      if (this.#reason && remainingMs !== undefined && remainingMs <= 0) throw this.#reason;
      return returned;
    }
    return this.#race(returned, remainingMs, timeoutReason);
  }

  async #race<T>(
    returned: PromiseLike<T>,
    timeoutMs: number | undefined,
    timeoutReason: () => ToolCallAbortedError,
  ): Promise<T> {
    // Aborted before the race began (cancelled while arguments were validated, or timed out
    // during the synchronous part): the call ends now; the late result is dropped.
    this.#pending = returned;
    const settled = () => (this.#pending = undefined);
    if (this.#reason) {
      Promise.resolve(returned).then(settled, settled); // no unhandled rejection from it
      throw this.#reason;
    }
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => this.abort(timeoutReason()), timeoutMs);
    this.#onUpstream = () => this.abort(this.#upstreamReason());
    const upstream = this.#upstream;
    this.#unfollowUpstream =
      upstream instanceof AbortSignal ? followSignal(upstream, this.#onUpstream) : upstream.follow(this.#onUpstream);
    try {
      return await new Promise<T>((resolve, reject) => {
        this.#reject = reject;
        if (this.#upstream.aborted) this.#onUpstream?.(); // aborted while execute ran synchronously
        Promise.resolve(returned).then(
          (value) => (settled(), resolve(value)),
          (error: unknown) => (settled(), reject(error)),
        );
      });
    } finally {
      this.#reject = undefined;
      if (timer) clearTimeout(timer);
    }
  }

  /** Stops following the request's signal (the call has finished). */
  dispose(): void {
    this.#unfollowUpstream?.();
    this.#unfollowUpstream = undefined;
    this.#onUpstream = undefined;
  }
}
