// The SDK serves `subscriptions/listen` itself, in its two entries (`createMcpHandler`'s listen
// router, `serveStdio`'s `StdioListenRouter`), before any view handler or pipeline stage sees the
// request, and acknowledges the filter it was sent. This module holds both entries to the caller's
// `resources/read` rule: a listen acknowledgement never lists, and a listen subscription never
// delivers, a resource URI the caller may not read.
import type { AuthInfo, JSONRPCMessage, McpHttpHandler, Transport } from '@modelcontextprotocol/server';
import { isPlainObject } from '../wire/plain-object.js';
import { stdioWireOf } from './stdio-channel.js';

/** Where a listen stream's resource subscriptions are held while it is open (see `ResourceInterest`). */
export interface InterestHolder {
  hold(uri: string): () => void;
}

/** Whether `auth` may read `uri` (the `resources/read` access rule; see `mayRead`). */
export type ReadCheck = (uri: string, auth: AuthInfo | undefined) => boolean;

const UPDATED = 'notifications/resources/updated';
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** `uris` without those `readable` refuses; non-strings stay (the SDK answers the request -32602). */
function readableOnly(uris: readonly unknown[], readable: (uri: string) => boolean): unknown[] {
  return uris.filter((uri) => typeof uri !== 'string' || readable(uri));
}

/** A copy of a `subscriptions/listen` body without the refused URIs, or the body itself when none is refused. */
function admittedOnly(body: Record<string, unknown>, readable: (uri: string) => boolean): unknown {
  const params = body.params as { notifications: { resourceSubscriptions: unknown[] } };
  const uris = params.notifications.resourceSubscriptions;
  const kept = readableOnly(uris, readable);
  if (kept.length === uris.length) return body;
  return { ...body, params: { ...params, notifications: { ...params.notifications, resourceSubscriptions: kept } } };
}

/** The URI of a `notifications/resources/updated` SSE frame, or undefined for any other frame. */
function updatedUri(frame: string): string | undefined {
  if (!frame.includes(UPDATED)) return undefined;
  const data = frame
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
  try {
    const message: unknown = JSON.parse(data);
    if (!isPlainObject(message) || message.method !== UPDATED || !isPlainObject(message.params)) return undefined;
    return typeof message.params.uri === 'string' ? message.params.uri : undefined;
  } catch {
    return undefined;
  }
}

/** An SSE byte stream without the `resources/updated` frames for URIs `readable` refuses (checked as each is sent). */
function withoutUnreadableUpdates(readable: (uri: string) => boolean): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  return new TransformStream({
    transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end + 2);
        buffer = buffer.slice(end + 2);
        const uri = updatedUri(frame);
        if (uri === undefined || readable(uri)) controller.enqueue(encoder.encode(frame));
      }
    },
    flush(controller) {
      buffer += decoder.decode();
      if (buffer) controller.enqueue(encoder.encode(buffer));
    },
  });
}

/**
 * The SDK handler's `fetch` with resource subscriptions of 2026-07-28 `subscriptions/listen`
 * streams held to the `resources/read` access rule of the caller (`authInfo`), as
 * `resources/subscribe` is on the legacy era: URIs whose resource or template refuses the caller
 * are taken out of the listen filter before the SDK honours it (so the acknowledgement lists only
 * admitted URIs), and each `notifications/resources/updated` on the stream is checked again when
 * it is sent (a resource registered later with a rule, a `canAccess` that changed its mind).
 * With `interest`, the admitted URIs are held there while the stream is open (released when it
 * ends or the client goes away).
 * Other requests, and listen streams without `resourceSubscriptions`, pass unchanged.
 * Web-standard streams only (the fetch entry runs on workerd, Deno and Bun).
 */
export function listenWithReadAccess(
  fetch: McpHttpHandler['fetch'],
  mayRead: ReadCheck,
  interest?: InterestHolder,
): McpHttpHandler['fetch'] {
  // Not async: every other request (each tools/call) goes straight through, without an extra promise.
  return (request, options) => {
    const body = options?.parsedBody;
    const notifications =
      isPlainObject(body) && body.method === 'subscriptions/listen' && isPlainObject(body.params)
        ? body.params.notifications
        : undefined;
    if (!isPlainObject(notifications) || !Array.isArray(notifications.resourceSubscriptions)) {
      return fetch(request, options);
    }
    const auth = options?.authInfo;
    const readable = (uri: string) => mayRead(uri, auth);
    return listenAdmitted(fetch, request, options, body as Record<string, unknown>, readable, interest);
  };
}

/** One `subscriptions/listen` with resource subscriptions: the refused URIs dropped, its stream filtered. */
async function listenAdmitted(
  fetch: McpHttpHandler['fetch'],
  request: Parameters<McpHttpHandler['fetch']>[0],
  options: Parameters<McpHttpHandler['fetch']>[1],
  body: Record<string, unknown>,
  readable: (uri: string) => boolean,
  interest: InterestHolder | undefined,
): Promise<Response> {
  const admitted = admittedOnly(body, readable) as { params: { notifications: { resourceSubscriptions: unknown[] } } };
  const response = await fetch(request, { ...options, parsedBody: admitted });
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  const { status, statusText, headers } = response;
  let stream = response.body.pipeThrough(withoutUnreadableUpdates(readable));
  const uris = admitted.params.notifications.resourceSubscriptions.filter((uri) => typeof uri === 'string');
  if (interest && uris.length > 0) stream = heldWhileOpen(stream, uris, interest);
  return new Response(stream, { status, statusText, headers });
}

/** `stream`, with `uris` held in `interest` until it ends, fails or is cancelled. */
function heldWhileOpen(
  stream: ReadableStream<Uint8Array>,
  uris: readonly string[],
  interest: InterestHolder,
): ReadableStream<Uint8Array> {
  const releases = uris.map((uri) => interest.hold(uri));
  const release = () => releases.forEach((done) => done());
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}

/** Subscriptions remembered per connection with the URIs their acknowledgement left out (the SDK's default cap of open ones). */
const REMEMBERED_SUBSCRIPTIONS = 1024;

/** The wires whose outgoing listen messages are already held to a read rule. */
const admittingWires = new WeakSet<Transport>();

/**
 * Holds the `subscriptions/listen` subscriptions of one stdio-style connection (stdio, and
 * `connectInMemory`, both served by the SDK's `serveStdio`) to `readable`, the connection's
 * `resources/read` rule: each `notifications/subscriptions/acknowledged` leaves out the resource
 * URIs it refuses (a field left empty is left out, as the SDK does), and a
 * `notifications/resources/updated` for a URI a subscription's acknowledgement left out is not sent
 * on that subscription, even after the rule changed. (Updates are also checked when they are sent, by
 * the view: `ViewServer`'s `wantsResourceUpdate`.)
 *
 * Works on the outgoing side, the SDK's wire below `transport`: the SDK's stdio router takes
 * inbound listen requests before any view is connected (the first message of a connection may be
 * one), but every acknowledgement it makes goes out through that wire. Unlike the HTTP entry's, a
 * subscription whose only field was refused stays open (the SDK's router holds it) until cancelled;
 * it delivers nothing.
 *
 * With `interest`, the URIs a subscription's acknowledgement lists are held there until it ends:
 * the client's `notifications/cancelled` for it, its graceful close (the SDK's empty listen result),
 * or the connection closing.
 *
 * Self-check: a transport that is not the SDK's stdio channel (HTTP) is left as it is. Returns
 * whether the rule is installed (already installed on this wire counts).
 */
export function admitStdioListens(
  transport: Transport,
  readable: (uri: string) => boolean,
  interest?: InterestHolder,
): boolean {
  const wire = stdioWireOf(transport);
  if (!wire) return false;
  if (admittingWires.has(wire)) return true;
  admittingWires.add(wire);
  const refusedBy = new Map<unknown, ReadonlySet<string>>();
  const held = interest ? holdsPerSubscription(wire, interest) : undefined;
  const send = wire.send.bind(wire);
  wire.send = (message, options) => {
    const method = (message as { method?: unknown }).method;
    if (method === ACKNOWLEDGED) {
      const admitted = acknowledgedReadable(message, readable, refusedBy);
      held?.acknowledged(admitted);
      return send(admitted, options);
    }
    if (method === UPDATED && refusedOn(message, refusedBy)) return Promise.resolve();
    if (method === undefined && held) held.ended((message as { id?: unknown }).id);
    return send(message, options);
  };
  return true;
}

/**
 * The URIs each listen subscription of a stdio wire holds in `interest`, keyed by the listen
 * request's id: taken when its acknowledgement goes out, let go when the client cancels it
 * (inbound `notifications/cancelled`, seen before the SDK's router), when the server answers it
 * (`ended`), or when the wire closes.
 */
function holdsPerSubscription(wire: Transport, interest: InterestHolder) {
  const holds = new Map<unknown, Array<() => void>>();
  const ended = (id: unknown) => {
    holds.get(id)?.forEach((release) => release());
    holds.delete(id);
  };
  const onmessage = wire.onmessage?.bind(wire);
  if (onmessage) {
    wire.onmessage = (message, extra) => {
      const { method, params } = message as { method?: unknown; params?: unknown };
      if (method === 'notifications/cancelled' && isPlainObject(params)) ended(params.requestId);
      onmessage(message, extra);
    };
  }
  const onclose = wire.onclose?.bind(wire);
  wire.onclose = () => {
    for (const id of [...holds.keys()]) ended(id);
    onclose?.();
  };
  return {
    ended,
    acknowledged(message: JSONRPCMessage) {
      const params = (message as { params?: unknown }).params;
      if (!isPlainObject(params) || !isPlainObject(params.notifications)) return;
      const id = isPlainObject(params._meta) ? params._meta[SUBSCRIPTION_ID] : undefined;
      const uris = params.notifications.resourceSubscriptions;
      ended(id);
      if (!Array.isArray(uris)) return;
      holds.set(
        id,
        uris.filter((uri): uri is string => typeof uri === 'string').map((uri) => interest.hold(uri)),
      );
    },
  };
}

/** The acknowledgement without refused URIs; what it left out is remembered under its subscription id. */
function acknowledgedReadable(
  message: JSONRPCMessage,
  readable: (uri: string) => boolean,
  refusedBy: Map<unknown, ReadonlySet<string>>,
): JSONRPCMessage {
  const params = (message as { params?: unknown }).params;
  if (!isPlainObject(params) || !isPlainObject(params.notifications)) return message;
  const id = isPlainObject(params._meta) ? params._meta[SUBSCRIPTION_ID] : undefined;
  refusedBy.delete(id); // a listen id used again starts afresh
  const { resourceSubscriptions: uris, ...others } = params.notifications;
  if (!Array.isArray(uris)) return message;
  const kept = readableOnly(uris, readable);
  if (kept.length === uris.length) return message;
  if (refusedBy.size >= REMEMBERED_SUBSCRIPTIONS) refusedBy.delete(refusedBy.keys().next().value);
  refusedBy.set(id, new Set(uris.filter((uri): uri is string => typeof uri === 'string' && !kept.includes(uri))));
  const notifications = kept.length > 0 ? { ...others, resourceSubscriptions: kept } : others;
  return { ...message, params: { ...params, notifications } } as JSONRPCMessage;
}

/** Whether a stamped `resources/updated` is for a URI its subscription's acknowledgement left out. */
function refusedOn(message: JSONRPCMessage, refusedBy: ReadonlyMap<unknown, ReadonlySet<string>>): boolean {
  if (refusedBy.size === 0) return false;
  const params = (message as { params?: unknown }).params;
  if (!isPlainObject(params) || typeof params.uri !== 'string') return false;
  const id = isPlainObject(params._meta) ? params._meta[SUBSCRIPTION_ID] : undefined;
  return refusedBy.get(id)?.has(params.uri) === true;
}
