import {
  SUBSCRIPTION_ID_META_KEY,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { isPlainResultResponse, plainMessageKind } from '../wire/json-rpc-shape.js';
import { isPlainObject } from '../wire/plain-object.js';
import { changedSource, fingerprint } from './fingerprint.js';

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
 * Fingerprints of the outbound intercept `serveStdio` (2.4.0; ESM and CJS) gives a 2026-07-28
 * channel (`modernOutboundIntercept`): it returns at once for anything `isJSONRPCNotification` (a
 * zod parse) refuses, so a result response passes it untouched.
 */
const NOTIFICATIONS_ONLY_INTERCEPTS: readonly string[] = ['ecac34a0', '13fb6780'];

/** The channel's outbound intercept when it is one a result response passes untouched, else undefined. */
function interceptPassingResults(channel: StdioChannel): StdioChannel['_outboundIntercept'] {
  const found = channel._outboundIntercept;
  return found && NOTIFICATIONS_ONLY_INTERCEPTS.includes(fingerprint(String(found))) ? found : undefined;
}

/** Whether `transport` is a 2026-07-28 stdio channel whose listen intercept result responses skip (the canary asks). */
export function listenInterceptSkipped(transport: Transport): boolean {
  return isStdioChannel(transport) && interceptPassingResults(transport) !== undefined;
}

/**
 * Spares the stdio channel its per-message zod checks on the common messages. The SDK's channel
 * parses every inbound message with `JSONRPCRequestSchema` (to remember the request id until it
 * is answered) and every outbound one with `JSONRPCResultResponseSchema` (to forget it again):
 * a few microseconds a call, most of it copying the result. For a plain request (see
 * {@link plainMessageKind}) and a plain result response ({@link isPlainResultResponse}) the channel's own steps run without the
 * parse, in its order; everything else goes through the channel's methods unchanged. On
 * 2026-07-28 the channel also hands every outbound message to `serveStdio`'s listen router, whose
 * first step is a zod parse that refuses all but notifications (~1 µs a result): a plain result
 * response skips that intercept when it is the one known to do so ({@link NOTIFICATIONS_ONLY_INTERCEPTS}).
 *
 * Self-check: a transport that is not such a channel (HTTP, an SDK with other internals) is left
 * as it is. Returns whether the shortcut is installed. Call before wrapping `send`.
 */
export function spareStdioChannelChecks(transport: Transport): boolean {
  if (!isStdioChannel(transport)) return false;
  const channel = transport;
  const deliver = channel.deliver.bind(channel);
  const send = channel.send.bind(channel);
  const passesResults = interceptPassingResults(channel);
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
    const intercept = channel._outboundIntercept;
    if (intercept && intercept !== passesResults && intercept(message) === 'handled') return;
    return channel._wire.send(message, options);
  };
  return true;
}

/** How many requests {@link deliverPlainCallsDirectly} took past the queue (tests see that it did). */
export const stdioQueueBypassProbe = { delivered: 0 };

/** Per wire, the channel whose plain `tools/call` requests skip `serveStdio`'s queue. */
const bypassedFor = new WeakMap<object, StdioChannel>();
/** Stands for "messages queued before the shortcut was installed may not be delivered yet". */
const QUEUED_BEFORE = Symbol('queued before');

/**
 * Source fingerprints of `serveStdio` (2.4.0; ESM and CJS), whose queue a 2026-07-28 connection's
 * bypass reproduces for `tools/call` (`processMessage` on a pinned connection, `tryServeListen`).
 */
const SERVE_STDIO_FINGERPRINTS = { serveStdio: ['e25e6ffa', '2202745a'] };

let knownServeStdio: unknown;
/** The verdict on {@link knownServeStdio} (null: not computed yet). */
let queueVerdict: string | undefined | null = null;

/**
 * Tells this module the SDK's `serveStdio` the toolkit serves stdio connections with (its stdio
 * entry, `stdio-connection.ts`, does when it opens one): a 2026-07-28 connection's queue is
 * bypassed only when that function's source is the one {@link deliverPlainCallsDirectly}
 * reproduces (checked on first use). Not imported here: a process that serves no stdio does not
 * load the SDK's stdio entry.
 */
export function recognizeServeStdio(serveStdio: unknown): void {
  if (serveStdio === knownServeStdio) return;
  knownServeStdio = serveStdio;
  queueVerdict = null;
}

/** Why a 2026-07-28 connection's queue is not bypassed (`serveStdio` unknown or changed), or undefined. */
export function modernQueueBypassMismatch(): string | undefined {
  if (knownServeStdio === undefined) return 'serveStdio is not known';
  if (queueVerdict === null) {
    const changed = changedSource({ serveStdio: knownServeStdio }, SERVE_STDIO_FINGERPRINTS);
    queueVerdict = changed === undefined ? undefined : `${changed} changed`;
  }
  return queueVerdict;
}

/** Whether `message` is the graceful-close result `serveStdio` sends for a listen subscription (2.4: in `closeAll`). */
function endsSubscription(message: JSONRPCMessage): boolean {
  const result = (message as { result?: unknown }).result;
  return isPlainObject(result) && isPlainObject(result._meta) && SUBSCRIPTION_ID_META_KEY in result._meta;
}

/**
 * Hands a plain `tools/call` request from the wire straight to the channel of a pinned view, past
 * `serveStdio`'s message queue. For a pinned connection the SDK's queue (an async `pump` and
 * `processMessage` per message, ~2 k instructions and a promise hop per call on 2025-11-25,
 * docs/performance.md fifth round) does nothing with a `tools/call` request but
 * `channel.deliver(message)` while the connection is open: on 2025-11-25 nothing else at all; on
 * 2026-07-28 (`modern`) it first asks its listen router, which serves only `subscriptions/listen`
 * requests and `notifications/cancelled`, and refuses only `initialize`, so a `tools/call` request
 * passes. This does that delivery when the queue is known to be empty (the last message handed to the
 * SDK has reached the channel, so every message is still delivered in the order read) and the
 * connection is pinned (that message was delivered without the opening's classification: on
 * 2026-07-28 a `server/discover` probe instance is not pinned yet). Anything else, and everything
 * while a message is still queued (a listen the router served never reaches the channel: the next
 * message then takes the queue), goes to the SDK's callback as before.
 *
 * Closing: the SDK's queue drops what arrives once the connection is torn down; the channel is
 * closed at once then, except while `serveStdio` is sending the graceful-close results of open listen
 * subscriptions (2026-07-28), which are seen on the wire: after the first, no request is delivered
 * directly.
 *
 * Call after the view is connected; on 2026-07-28 only where {@link modernQueueBypassMismatch} is
 * undefined. Self-check as {@link spareStdioChannelChecks}; returns whether the shortcut is installed
 * (a wire keeps the one of its first view until that view's channel closes: a discarded probe's).
 */
export function deliverPlainCallsDirectly(transport: Transport, modern = false): boolean {
  if (!isStdioChannel(transport)) return false;
  const channel = transport;
  const wire = channel._wire;
  const queue = wire.onmessage;
  const earlier = bypassedFor.get(wire);
  if (!queue || (earlier && !earlier._closed)) return false;
  bypassedFor.set(wire, channel);
  let behind: unknown = QUEUED_BEFORE;
  let pinned = false;
  let tornDown = false;
  const deliver = channel.deliver.bind(channel);
  channel.deliver = (message, extra) => {
    if (extra === undefined) pinned = true; // the SDK delivers so only on a pinned connection
    if (message === behind) behind = undefined;
    deliver(message, extra);
  };
  if (modern) {
    const send = wire.send.bind(wire);
    wire.send = (message, options) => {
      if (!tornDown && 'result' in message && endsSubscription(message)) tornDown = true;
      return send(message, options);
    };
  }
  wire.onmessage = (message, extra) => {
    const direct =
      behind === undefined &&
      pinned &&
      !tornDown &&
      !channel._closed &&
      (message as { method?: unknown }).method === 'tools/call' &&
      plainMessageKind(message) === 'request';
    if (direct) {
      stdioQueueBypassProbe.delivered += 1;
      return channel.deliver(message, extra);
    }
    behind = message;
    queue(message, extra);
  };
  return true;
}
