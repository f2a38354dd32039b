import type { ToolContext } from './tool-context.js';

/**
 * The key of a tool context's way to follow its abort without making `context.signal` (internal:
 * not exported from the package). A context built by a server view has it; others (a test's
 * context, a wrapper) need not.
 */
export const FOLLOW_ABORT = Symbol('mcp-toolkit.followAbort');

interface Followable {
  [FOLLOW_ABORT]?(listener: () => void): () => void;
}

const noop = () => {};

/**
 * Calls `listener` when the call of `context` is aborted, as an `abort` listener on
 * `context.signal` would be called (not when it was aborted already), and returns the way to stop
 * following. A server's tool context does this without making its `AbortSignal` (several µs per
 * call, and a forwarded call needs only the callback: #27); any other context is followed through
 * `context.signal`.
 */
export function followAbort(context: Pick<ToolContext, 'signal'>, listener: () => void): () => void {
  const follow = (context as Followable)[FOLLOW_ABORT];
  if (typeof follow === 'function') return follow.call(context, listener);
  return followSignal(context.signal, listener);
}

/** `listener` as a one-time `abort` listener of `signal` (none when it is aborted already), and the way to remove it. */
export function followSignal(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) return noop;
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}
