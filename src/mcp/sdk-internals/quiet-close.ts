import { Server } from '@modelcontextprotocol/server';

/** The parts of the SDK's `Protocol` a closing view reads (private in its typings). */
interface ClosingProtocol {
  _onclose(): void;
  _responseHandlers?: Map<unknown, unknown>;
  _requestHandlerAbortControllers?: Map<unknown, unknown>;
  onclose?: () => void;
}

const sdkOnclose = (Server.prototype as unknown as Partial<ClosingProtocol>)._onclose;

/**
 * Whether the installed SDK closes a connection the way {@link closeQuietly} relies on: a
 * `Protocol._onclose` method and the two tables it settles (`_responseHandlers`: requests this side
 * sent and awaits; `_requestHandlerAbortControllers`: requests it is serving).
 */
export function checkQuietClose(): boolean {
  const probe = new Server({ name: 'canary', version: '0' }) as unknown as ClosingProtocol;
  return (
    typeof sdkOnclose === 'function' &&
    probe._responseHandlers instanceof Map &&
    probe._requestHandlerAbortControllers instanceof Map
  );
}

/**
 * Runs the SDK's `_onclose` for `server`. The SDK builds a `ConnectionClosed` `SdkError` on every
 * close, for the requests still pending on that connection; a 2026-07-28 request's view closes once
 * per HTTP request with nothing pending, and capturing that unused error's stack trace was ~10 µs of
 * each request (a tenth of the SDK error's cost is the rest). With nothing pending the error is made
 * without a stack (`Error.stackTraceLimit` 0 for the SDK's own bookkeeping only: the view's
 * `onclose` runs after the limit is back, and it was the last thing the SDK would have done with
 * nothing to settle). With anything pending the SDK's path runs unchanged, so every awaited request
 * still gets its error with a stack. Installed only where {@link checkQuietClose} holds.
 */
export function closeQuietly(server: object): void {
  const protocol = server as ClosingProtocol;
  if (protocol._responseHandlers?.size !== 0 || protocol._requestHandlerAbortControllers?.size !== 0) {
    sdkOnclose!.call(protocol);
    return;
  }
  const onclose = protocol.onclose;
  let closed = false;
  protocol.onclose = () => {
    closed = true;
  };
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    sdkOnclose!.call(protocol);
  } finally {
    Error.stackTraceLimit = limit;
    protocol.onclose = onclose;
  }
  if (closed) onclose?.();
}
