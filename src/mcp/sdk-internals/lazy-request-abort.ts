/**
 * The abort side of one request served by the stdio `tools/call` dispatch (`stdio-tools-call.ts`),
 * kept in the SDK's `_requestHandlerAbortControllers` map where the SDK keeps an `AbortController`:
 * the SDK calls `abort(reason)` on it for `notifications/cancelled` and when the connection closes.
 *
 * The `AbortSignal` is made on the first read of {@link signal} (aborted already, with the same
 * reason, when the request was): on Node 20 every `AbortSignal` gets a hidden class of its own, about
 * 18 k instructions, a sixth of a whole stdio call (callgrind, docs/performance.md fifth round), and
 * a plain call never reads it. {@link follow} lets a call follow the abort without making it.
 */
export class LazyRequestAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #followers: AbortFollowers | undefined;

  /** The request's signal, made on first read. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Whether the request was aborted (without making the signal). */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** Aborts the request (the first call wins), as `AbortController.abort` would: listeners first, then followers. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#followers?.fire();
  }

  /** Calls `listener` once when the request is aborted (not when it is already); returns the way to stop. */
  follow(listener: () => void): () => void {
    if (this.#aborted) return () => {};
    return (this.#followers ??= new AbortFollowers()).add(listener);
  }
}

/**
 * The listeners following one abort without an `AbortSignal` (a tool call's, a request's): each is
 * called once, in order, when {@link fire} runs. The owner checks whether it was aborted already.
 */
export class AbortFollowers {
  readonly #listeners: (() => void)[] = [];

  /** Adds `listener`; returns the way to remove it. */
  add(listener: () => void): () => void {
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners.indexOf(listener);
      if (index >= 0) this.#listeners.splice(index, 1);
    };
  }

  /** Calls every listener once (those added later are not called). */
  fire(): void {
    for (const listener of this.#listeners.splice(0)) listener();
  }
}
