import type { RequestId, Server } from '@modelcontextprotocol/server';
import type { ToolCallAbortedError } from '../../errors.js';
import { AbandonedExecutions } from './abandoned-executions.js';
import { SteadyMap, SteadySet } from './steady-table.js';

/** What a call in flight offers to be aborted (the view's `CallAbort`). */
interface CallAbort {
  abort(reason: ToolCallAbortedError): void;
}

/** How long {@link InFlightCalls.abort} waits for aborted calls to be answered (ms). */
export const ABORT_SETTLE_MS = 2_000;

/**
 * Waits for `promise` to settle, at most `ms` milliseconds (never rejects). The bound holds the event loop
 * until then: what is awaited may hold nothing (an aborted tool that never returns), and `stop()` awaited at
 * an app's top level must still settle rather than end the process with exit code 13.
 */
export async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** A shutdown waiting for a call to be answered. */
interface Waiter {
  readonly settled: Promise<void>;
  readonly resolve: () => void;
}

/**
 * The `tools/call` requests every view is serving right now, so that the server can end
 * them through their own result path: `stop()` aborts all (reason `shutdown`), a legacy
 * HTTP session aborts its own when the session is deleted or closed and a call's when its
 * connection dies (`disconnected`). The aborted call then answers once, through the SDK,
 * as any call does; nothing is written beside it, so nothing can race a call that is
 * finishing at the same moment.
 *
 * Hot path (W2): a call costs two map entries and a set entry, nothing else; each view's
 * map lives as long as the view (weakly held), and a settlement promise is made only for
 * calls a shutdown waits for. The tables are steady ones (`steady-table.ts`): emptied after
 * every call of a sequential client, a plain `Map`/`Set` would rebuild its hash table each time.
 */
export class InFlightCalls {
  readonly #byView = new WeakMap<Server, SteadyMap<RequestId, CallAbort>>();
  readonly #all = new SteadySet<CallAbort>();
  readonly #waiters = new WeakMap<CallAbort, Waiter>();
  /** Tools still running after their call was aborted (reported by `stop()`). */
  readonly abandoned = new AbandonedExecutions();

  /** Marks `id` in flight on `view`, abortable through `abort`; {@link end} marks it done. */
  begin(view: Server, id: RequestId, abort: CallAbort): void {
    let calls = this.#byView.get(view);
    if (!calls) this.#byView.set(view, (calls = new SteadyMap()));
    calls.set(id, abort);
    this.#all.add(abort);
  }

  /** Marks the call `begin` registered as done (answered or about to be). */
  end(view: Server, id: RequestId, abort: CallAbort): void {
    const calls = this.#byView.get(view);
    if (calls?.get(id) === abort) calls.delete(id);
    this.#all.delete(abort);
    this.#waiters.get(abort)?.resolve();
  }

  /** Number of calls in flight (all views). */
  get size(): number {
    return this.#all.size;
  }

  /**
   * Aborts the calls in flight on `view` (only those with an id in `ids`, when given) with
   * `reason()`, then waits until they returned and their answers were handed to the
   * transport, at most {@link ABORT_SETTLE_MS}.
   */
  async abort(view: Server, reason: () => ToolCallAbortedError, ids?: readonly RequestId[]): Promise<void> {
    const calls = this.#byView.get(view);
    if (!calls) return;
    const targets = ids ? ids.flatMap((id) => calls.get(id) ?? []) : [...calls.values()];
    await this.#abortAndWait(targets, reason);
  }

  /** Aborts every call on every view with `reason()` and waits as {@link abort} does. */
  async abortAll(reason: () => ToolCallAbortedError): Promise<void> {
    await this.#abortAndWait([...this.#all], reason);
  }

  #settled(abort: CallAbort): Promise<void> {
    if (!this.#all.has(abort)) return Promise.resolve();
    let waiter = this.#waiters.get(abort);
    if (!waiter) {
      let resolve!: () => void;
      const settled = new Promise<void>((done) => (resolve = done));
      this.#waiters.set(abort, (waiter = { settled, resolve }));
    }
    return waiter.settled;
  }

  async #abortAndWait(targets: CallAbort[], reason: () => ToolCallAbortedError): Promise<void> {
    if (targets.length === 0) return;
    for (const abort of targets) abort.abort(reason());
    await settleWithin(Promise.all(targets.map((abort) => this.#settled(abort))), ABORT_SETTLE_MS);
    // The SDK sends a handler's answer a few microtasks after it returns: let it go out.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
