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
  return fits(new Server({ name: 'canary', version: '0' }) as unknown as ClosingProtocol);
}

/** {@link checkQuietClose} for one closing connection (two field reads: no probe server at module load). */
function fits(protocol: ClosingProtocol): boolean {
  return (
    typeof sdkOnclose === 'function' &&
    protocol._responseHandlers instanceof Map &&
    protocol._requestHandlerAbortControllers instanceof Map
  );
}

/**
 * Runs the SDK's `_onclose` for `server`. The SDK builds a `ConnectionClosed` `SdkError` on every
 * close, for the requests still pending on that connection; a 2026-07-28 request's view closes once
 * per HTTP request, and capturing that error's stack trace was ~50 k instructions of each request
 * (1.2%, callgrind). When this side awaits no response (nothing would surface the error to code that
 * called the SDK), the error is built without a stack: `Error.stackTraceLimit` is 0 from the start of
 * `_onclose` until the view's `onclose` runs, which the SDK calls right after building the error, so
 * the order of its steps is unchanged and everything from `onclose` on runs with the process's limit.
 * A request still being served (its response just sent, or a client gone mid-call) is aborted with
 * that error as before, as its signal's reason. With a response awaited the SDK's path runs
 * unchanged, and so it does for a connection whose fields are not what {@link checkQuietClose} expects.
 */
export function closeQuietly(server: object): void {
  const protocol = server as ClosingProtocol;
  if (!fits(protocol) || protocol._responseHandlers!.size !== 0) {
    sdkOnclose?.call(protocol);
    return;
  }
  const onclose = protocol.onclose;
  const limit = Error.stackTraceLimit;
  const restore = () => {
    Error.stackTraceLimit = limit;
    protocol.onclose = onclose;
  };
  protocol.onclose = () => {
    restore();
    onclose?.();
  };
  Error.stackTraceLimit = 0;
  try {
    sdkOnclose!.call(protocol);
  } finally {
    restore();
  }
}
