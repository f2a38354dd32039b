import type { JSONRPCNotification, JSONRPCRequest, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';
import { plainMessageKind } from '../wire/json-rpc-shape.js';

/** The parts of the SDK's `Protocol` (2.4) this module calls: its two inbound dispatch steps. */
interface ProtocolDispatch {
  _onrequest?: (request: JSONRPCRequest, extra?: MessageExtraInfo) => void;
  _onnotification?: (notification: JSONRPCNotification, extra?: MessageExtraInfo) => void;
}

/**
 * Hands each plain inbound request or notification straight to the dispatch step the SDK would
 * choose for it. The SDK's `Protocol.connect` installs a transport callback that classifies every
 * message by trying the zod schemas of a result, an error, a request and a notification in turn:
 * for a request, two failed parses and a passed one (a measurable share of a stdio call; docs/performance.md, W2).
 * A message {@link plainMessageKind} accepts passes the request (or notification) schema and has
 * no `result`/`error` field, so it can be neither response: the SDK would dispatch it exactly so.
 * Anything else (responses, unusual shapes) goes through the SDK's own callback unchanged.
 *
 * Call right after `connect(transport)`, and only when the transport had no `onmessage` of its
 * own before (the SDK's callback would have called it first). Self-check: when the connected
 * server has no `_onrequest`/`_onnotification` (a different SDK), nothing is changed. Returns
 * whether the shortcut is installed. `serve(request, extra)` may take a plain request first (true:
 * served; false: the SDK's `_onrequest` gets it).
 */
export function dispatchPlainMessagesDirectly(
  server: object,
  transport: Transport,
  serve?: (request: JSONRPCRequest, extra: MessageExtraInfo | undefined) => boolean,
): boolean {
  const { _onrequest, _onnotification } = server as ProtocolDispatch;
  const sdkCallback = transport.onmessage;
  if (typeof _onrequest !== 'function' || typeof _onnotification !== 'function' || !sdkCallback) return false;
  transport.onmessage = (message, extra) => {
    const kind = plainMessageKind(message);
    if (kind === 'request') {
      if (!serve?.(message as JSONRPCRequest, extra)) _onrequest.call(server, message as JSONRPCRequest, extra);
    } else if (kind === 'notification') _onnotification.call(server, message as JSONRPCNotification, extra);
    else sdkCallback(message, extra);
  };
  return true;
}
