import type { RequestId, Server } from '@modelcontextprotocol/server';
import type { ToolCallAbortedError } from '../../errors.js';
import type { CallAbort } from './call-abort.js';

/** How long {@link InFlightCalls.abort} waits for aborted calls to be answered (ms). */
export const ABORT_SETTLE_MS = 2_000;

/** Waits for `promise` to settle, at most `ms` milliseconds (never rejects). */
export async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => {}),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms).unref())),
  ]);
  clearTimeout(timer);
}

/** One call in flight; its settlement promise is made only when a shutdown waits for it. */
interface Entry {
  readonly abort: CallAbort;
  finished: boolean;
  settled?: Promise<void>;
  resolve?: () => void;
}

function settled(entry: Entry): Promise<void> {
  if (entry.finished) return Promise.resolve();
  return (entry.settled ??= new Promise<void>((resolve) => (entry.resolve = resolve)));
}

/**
 * The `tools/call` requests every view is serving right now, so that the server can end
 * them through their own result path: `stop()` aborts all (reason `shutdown`), a legacy
 * HTTP session aborts its own when the session is deleted or closed and a call's when its
 * connection dies (`disconnected`). The aborted call then answers once, through the SDK,
 * as any call does; nothing is written beside it, so nothing can race a call that is
 * finishing at the same moment.
 */
export class InFlightCalls {
  readonly #calls = new Map<Server, Map<RequestId, Entry>>();

  /** Marks `id` in flight on `view`, abortable through `abort`; returns the function that marks it done. */
  begin(view: Server, id: RequestId, abort: CallAbort): () => void {
    let calls = this.#calls.get(view);
    if (!calls) this.#calls.set(view, (calls = new Map()));
    const entry: Entry = { abort, finished: false };
    calls.set(id, entry);
    return () => {
      entry.finished = true;
      entry.resolve?.();
      if (calls.get(id) === entry) calls.delete(id);
      if (calls.size === 0 && this.#calls.get(view) === calls) this.#calls.delete(view);
    };
  }

  /** Number of calls in flight (all views). */
  get size(): number {
    let size = 0;
    for (const calls of this.#calls.values()) size += calls.size;
    return size;
  }

  /**
   * Aborts the calls in flight on `view` (only those with an id in `ids`, when given) with
   * `reason()`, then waits until they returned and their answers were handed to the
   * transport, at most {@link ABORT_SETTLE_MS}.
   */
  async abort(view: Server, reason: () => ToolCallAbortedError, ids?: readonly RequestId[]): Promise<void> {
    const calls = this.#calls.get(view);
    if (!calls) return;
    const targets = ids ? ids.flatMap((id) => calls.get(id) ?? []) : [...calls.values()];
    await this.#abortAndWait(targets, reason);
  }

  /** Aborts every call on every view with `reason()` and waits as {@link abort} does. */
  async abortAll(reason: () => ToolCallAbortedError): Promise<void> {
    const targets = [...this.#calls.values()].flatMap((calls) => [...calls.values()]);
    await this.#abortAndWait(targets, reason);
  }

  async #abortAndWait(targets: Entry[], reason: () => ToolCallAbortedError): Promise<void> {
    if (targets.length === 0) return;
    for (const { abort } of targets) abort.abort(reason());
    await settleWithin(Promise.all(targets.map(settled)), ABORT_SETTLE_MS);
    // The SDK sends a handler's answer a few microtasks after it returns: let it go out.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
