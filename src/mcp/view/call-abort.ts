import { ToolCallAbortedError } from '../../errors.js';

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * The abort side of one tool call: the signal a tool sees as `context.signal`, aborted
 * (the first reason wins) when the client cancels the request, when the connection closes
 * during the call, or when the tool's `timeoutMs` passes; `execute` is raced against it.
 *
 * Cost: in Node 20 adding the first listener to a fresh `AbortSignal` costs several µs, a
 * sizeable part of a whole stdio `tools/call`. So the request's signal is listened to only
 * once `execute` has returned a pending promise (a synchronous `execute` cannot be
 * interrupted: nothing aborts while it runs), and the race is settled directly by
 * {@link abort} rather than by a second listener on the tool's own signal.
 */
export class CallAbort {
  readonly #controller = new AbortController();
  readonly #upstream: AbortSignal;
  readonly #upstreamReason: () => ToolCallAbortedError;
  #onUpstream?: () => void;
  #reject?: (reason: unknown) => void;

  /**
   * @param upstream - the request's signal (aborted by the SDK on cancellation or disconnection).
   * @param upstreamReason - why the call ends when `upstream` aborts (read at that moment).
   */
  constructor(upstream: AbortSignal, upstreamReason: () => ToolCallAbortedError) {
    this.#upstream = upstream;
    this.#upstreamReason = upstreamReason;
    if (upstream.aborted) this.abort(upstreamReason());
  }

  /** The tool's `context.signal`. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Aborts the call with `reason` unless it was already aborted. */
  abort(reason: ToolCallAbortedError): void {
    if (this.#controller.signal.aborted) return;
    this.#controller.abort(reason);
    this.#reject?.(reason);
  }

  /**
   * Runs `execute`; a pending result is raced against {@link abort} (cancellation,
   * disconnection, `timeoutMs`). A value returned synchronously is returned as it is.
   */
  async run<T>(
    execute: () => T | PromiseLike<T>,
    timeoutMs: number | undefined,
    timeoutReason: () => ToolCallAbortedError,
  ) {
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => this.abort(timeoutReason()), timeoutMs);
    try {
      const returned = execute();
      if (!isThenable(returned)) return returned;
      this.#onUpstream = () => this.abort(this.#upstreamReason());
      this.#upstream.addEventListener('abort', this.#onUpstream, { once: true });
      return await new Promise<T>((resolve, reject) => {
        this.#reject = reject;
        if (this.#upstream.aborted) this.#onUpstream?.(); // aborted while execute ran synchronously
        Promise.resolve(returned).then(resolve, reject);
      });
    } finally {
      this.#reject = undefined;
      if (timer) clearTimeout(timer);
    }
  }

  /** Stops following the request's signal (the call has finished). */
  dispose(): void {
    if (this.#onUpstream) this.#upstream.removeEventListener('abort', this.#onUpstream);
    this.#onUpstream = undefined;
  }
}
