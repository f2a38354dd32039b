import type { AuthInfo, McpHttpHandler } from '@modelcontextprotocol/server';
import { isPlainObject } from '../wire/plain-object.js';

/** Whether `auth` may read `uri` (the `resources/read` access rule; see `mayRead`). */
export type ReadCheck = (uri: string, auth: AuthInfo | undefined) => boolean;

const UPDATED = 'notifications/resources/updated';

/** A copy of a `subscriptions/listen` body without the refused URIs, or the body itself when none is refused. */
function admittedOnly(body: Record<string, unknown>, readable: (uri: string) => boolean): unknown {
  const params = body.params as { notifications: { resourceSubscriptions: unknown[] } };
  const uris = params.notifications.resourceSubscriptions;
  const kept = uris.filter((uri) => typeof uri !== 'string' || readable(uri));
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
 * Other requests, and listen streams without `resourceSubscriptions`, pass unchanged.
 * Web-standard streams only (the fetch entry runs on workerd, Deno and Bun).
 */
export function listenWithReadAccess(fetch: McpHttpHandler['fetch'], mayRead: ReadCheck): McpHttpHandler['fetch'] {
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
    return listenAdmitted(fetch, request, options, body as Record<string, unknown>, (uri) => mayRead(uri, auth));
  };
}

/** One `subscriptions/listen` with resource subscriptions: the refused URIs dropped, its stream filtered. */
async function listenAdmitted(
  fetch: McpHttpHandler['fetch'],
  request: Parameters<McpHttpHandler['fetch']>[0],
  options: Parameters<McpHttpHandler['fetch']>[1],
  body: Record<string, unknown>,
  readable: (uri: string) => boolean,
): Promise<Response> {
  const response = await fetch(request, { ...options, parsedBody: admittedOnly(body, readable) });
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  const { status, statusText, headers } = response;
  return new Response(response.body.pipeThrough(withoutUnreadableUpdates(readable)), { status, statusText, headers });
}
