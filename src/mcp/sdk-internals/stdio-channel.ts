import type {
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { isPlainResultResponse, plainMessageKind } from '../wire/json-rpc-shape.js';

/**
 * The parts of the SDK's `StdioConnectionChannel` (2.4, private: the transport `serveStdio`
 * connects each pinned server to) this module relies on.
 */
interface StdioChannel {
  deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void;
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void>;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  _closed: boolean;
  _pendingRequests: Set<RequestId>;
  _settle(id: RequestId): void;
  _wire: Transport;
  _outboundIntercept?: (message: JSONRPCMessage) => 'handled' | undefined;
}

function isStdioChannel(transport: object): transport is StdioChannel {
  const channel = transport as Partial<StdioChannel>;
  return (
    typeof channel.deliver === 'function' &&
    typeof channel.send === 'function' &&
    typeof channel._settle === 'function' &&
    typeof channel._closed === 'boolean' &&
    channel._pendingRequests instanceof Set &&
    typeof channel._wire?.send === 'function'
  );
}

/** The SDK's wire below `transport` when it is the stdio channel `serveStdio` connects a server to, else undefined. */
export function stdioWireOf(transport: Transport): Transport | undefined {
  return isStdioChannel(transport) ? transport._wire : undefined;
}

/**
 * Spares the stdio channel its per-message zod checks on the common messages. The SDK's channel
 * parses every inbound message with `JSONRPCRequestSchema` (to remember the request id until it
 * is answered) and every outbound one with `JSONRPCResultResponseSchema` (to forget it again):
 * a few microseconds a call, most of it copying the result. For a plain request (see
 * {@link plainMessageKind}) and a plain result response ({@link isPlainResultResponse}) the channel's own steps run without the
 * parse, in its order; everything else goes through the channel's methods unchanged.
 *
 * Self-check: a transport that is not such a channel (HTTP, an SDK with other internals) is left
 * as it is. Returns whether the shortcut is installed. Call before wrapping `send`.
 */
export function spareStdioChannelChecks(transport: Transport): boolean {
  if (!isStdioChannel(transport)) return false;
  const channel = transport;
  const deliver = channel.deliver.bind(channel);
  const send = channel.send.bind(channel);
  channel.deliver = (message, extra) => {
    if (plainMessageKind(message) !== 'request') return deliver(message, extra);
    if (channel._closed) return;
    channel._pendingRequests.add((message as { id: RequestId }).id);
    channel.onmessage?.(message, extra);
  };
  channel.send = async (message, options) => {
    if (!isPlainResultResponse(message)) return send(message, options);
    channel._settle((message as { id: RequestId }).id);
    if (channel._closed) return;
    if (channel._outboundIntercept?.(message) === 'handled') return;
    return channel._wire.send(message, options);
  };
  return true;
}
