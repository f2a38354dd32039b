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

/** Wires whose plain `tools/call` requests already skip `serveStdio`'s queue. */
const bypassed = new WeakSet<object>();
/** Stands for "messages queued before the shortcut was installed may not be delivered yet". */
const QUEUED_BEFORE = Symbol('queued before');

/**
 * Hands a plain `tools/call` request from the wire straight to the channel of a 2025-11-25 view,
 * past `serveStdio`'s message queue. For a pinned handshake-era connection the SDK's queue (an
 * async `pump` and `processMessage` per message, ~2 k instructions and a promise hop per call,
 * docs/performance.md fifth round) does nothing but `channel.deliver(message)` while the
 * connection is open; this does that when the queue is known to be empty: the last message handed
 * to the SDK has reached the channel (every message is still delivered in the order read). Anything
 * else, and everything while a message is still queued, goes to the SDK's callback as before.
 *
 * Call after the view is connected, for a handshake-era view only (a 2026-07-28 connection's queue
 * serves `subscriptions/listen` itself). Self-check as {@link spareStdioChannelChecks}; returns
 * whether the shortcut is installed.
 */
export function deliverPlainCallsDirectly(transport: Transport): boolean {
  if (!isStdioChannel(transport)) return false;
  const channel = transport;
  const wire = channel._wire;
  const queue = wire.onmessage;
  if (!queue || bypassed.has(wire)) return false;
  bypassed.add(wire);
  let behind: unknown = QUEUED_BEFORE;
  const deliver = channel.deliver.bind(channel);
  channel.deliver = (message, extra) => {
    if (message === behind) behind = undefined;
    deliver(message, extra);
  };
  wire.onmessage = (message, extra) => {
    const direct =
      behind === undefined &&
      !channel._closed &&
      (message as { method?: unknown }).method === 'tools/call' &&
      plainMessageKind(message) === 'request';
    if (direct) return channel.deliver(message, extra);
    behind = message;
    queue(message, extra);
  };
  return true;
}
