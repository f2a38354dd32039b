import {
  PerRequestHTTPServerTransport,
  type JSONRPCMessage,
  type Server,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { isPlainResultResponse } from '../wire/json-rpc-shape.js';
import { onDemandResponse } from './on-demand-response.js';
import { serializedAroundTools, type SerializedAroundTools } from '../wire/serialized-once.js';

/** The parts of the SDK's per-request transport (2.4, private) this module reads and sets. */
interface PerRequestInternals {
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void>;
  close(): Promise<void>;
  settleResponse?: (response: Response) => void;
  _closed?: boolean;
  _terminalDelivered?: boolean;
  _requestId?: unknown;
  _responseMode?: unknown;
  _sse?: unknown;
}

let verdict: boolean | undefined;
const encoder = new TextEncoder();
const NO_BYTES = new Uint8Array(0);

/**
 * The start-up self-check: whether the SDK's per-request transport still has the private
 * `settleResponse(response)` and the state fields the shortcut reads, with the values a fresh
 * transport starts with. Computed once; the first `false` goes to `onMismatch`.
 */
export function checkCachedJsonResponse(onMismatch?: (reason: string) => void): boolean {
  if (verdict !== undefined) return verdict;
  const proto = PerRequestHTTPServerTransport.prototype as unknown as PerRequestInternals;
  const fresh = new PerRequestHTTPServerTransport({
    classification: undefined as never,
  }) as unknown as PerRequestInternals;
  verdict =
    typeof proto.settleResponse === 'function' &&
    proto.settleResponse.length === 1 &&
    fresh._closed === false &&
    fresh._terminalDelivered === false &&
    typeof fresh._responseMode === 'string';
  if (!verdict) onMismatch?.('PerRequestHTTPServerTransport has no settleResponse() or changed its state fields');
  return verdict;
}

/** The response body from the three parts: what `Response.json(message)` encodes. */
function bodyBytes({ before, tools, after }: SerializedAroundTools): Uint8Array {
  const head = encoder.encode(before);
  const tail = encoder.encode(after);
  const body = new Uint8Array(head.byteLength + tools.byteLength + tail.byteLength);
  body.set(head, 0);
  body.set(tools, head.byteLength);
  body.set(tail, head.byteLength + tools.byteLength);
  return body;
}

/** Answers whose body the Node bridge writes part by part (`cachedListParts`): response -> its parts. */
const partsOf = new WeakMap<Response, SerializedAroundTools>();

/**
 * The SDK's plain JSON answer (`Response.json(message)`, status 200), from the three parts. With
 * `bodyOnDemand` the body is made when something reads it (an {@link onDemandResponse}: no web
 * stream is built otherwise), and the parts are kept for {@link cachedListParts}: a Node
 * bridge that writes them itself then never builds the ~200 KB body (nor undici its copy of it).
 */
function jsonResponse(parts: SerializedAroundTools, bodyOnDemand: boolean): Response {
  const init = { status: 200, headers: { 'Content-Type': 'application/json' } };
  if (!bodyOnDemand) return new Response(bodyBytes(parts), init);
  const response = onDemandResponse(() => bodyBytes(parts), init);
  partsOf.set(response, parts);
  return response;
}

/**
 * The three parts of a plain JSON answer made with `bodyOnDemand` (see
 * {@link answerCachedListsAsJson}): `before`, the cached bytes (empty for an answer that lists no
 * cached tools) and `after` are, in this order, the bytes of its body. Undefined for any other
 * response, and once its body was read.
 */
export function cachedListParts(response: Response): SerializedAroundTools | undefined {
  const parts = partsOf.get(response);
  return parts && !response.bodyUsed ? parts : undefined;
}

/**
 * Whether the SDK would answer `message` with one plain JSON body now: the result of the
 * exchange's own request, nothing sent before it (no event stream), not answered or closed yet.
 */
function answersAsPlainJson(transport: PerRequestInternals, message: JSONRPCMessage): boolean {
  return (
    'result' in message &&
    message.id === transport._requestId &&
    transport._requestId !== undefined &&
    transport._sse === undefined &&
    transport._responseMode !== 'sse' &&
    transport._closed === false &&
    transport._terminalDelivered === false
  );
}

/**
 * The body of the plain JSON answer to `message` in parts: around a cached `tools` array, else (a
 * result response the SDK's schema accepts as is, `isPlainResultResponse`) the whole JSON text in
 * `before`. Undefined for anything else (error responses, unusual shapes: the SDK's own `send`).
 */
function plainAnswerParts(message: JSONRPCMessage): SerializedAroundTools | undefined {
  const parts = serializedAroundTools(message);
  if (parts || !isPlainResultResponse(message)) return parts;
  return { before: JSON.stringify(message), tools: NO_BYTES, after: '' };
}

function answerPlainResultsDirectly(transport: PerRequestHTTPServerTransport, bodyOnDemand: boolean): void {
  const internals = transport as unknown as PerRequestInternals;
  const send = internals.send.bind(internals);
  internals.send = (message, options) => {
    const parts = answersAsPlainJson(internals, message) ? plainAnswerParts(message) : undefined;
    if (!parts) return send(message, options);
    // What the SDK's send does for a plain JSON result (its schema checks pass for this shape), with
    // the body spliced or stringified here and, on the Node bridge, written without a web stream.
    internals._terminalDelivered = true;
    internals.settleResponse!(jsonResponse(parts, bodyOnDemand));
    queueMicrotask(() => void internals.close());
    return Promise.resolve();
  };
}

/**
 * Lets a 2026-07-28 request's transport answer a `tools/list` from the list's cached JSON
 * (`serializedAroundTools`) instead of `Response.json`, which stringifies and encodes the whole
 * ~200 KB list of 1,000 tools on every request: the same status, header and body bytes, as the
 * session leg's cached SSE writer does for 2025-11-25 sessions. Any other plain result response
 * (`isPlainResultResponse`, say a `tools/call` result) is answered the same way from its JSON text,
 * without the SDK's two schema checks of it (one failing) and, on the Node bridge, without the web
 * stream `Response.json` makes and hono reads back. Every other message (errors, notifications),
 * and an answer on an event stream, goes through the SDK's own `send`.
 *
 * Uses the transport's private `settleResponse()` and state fields; when
 * {@link checkCachedJsonResponse} finds them changed, requests are served as the SDK serves them.
 *
 * @param server - a fresh per-request view (returned as is, with `connect` wrapped).
 * @param bodyOnDemand - the caller writes such an answer from {@link cachedListParts} (the Node
 *   bridge): its body is made only if something reads it. Without it the body is plain bytes (the
 *   fetch handler, whose runtimes send a stream body chunked).
 */
export function answerCachedListsAsJson(server: Server, bodyOnDemand = false): Server {
  if (!checkCachedJsonResponse()) return server;
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    // Before connect: the view wraps `send` there (well-formed Unicode first), so this sees what it would send.
    if (transport instanceof PerRequestHTTPServerTransport) answerPlainResultsDirectly(transport, bodyOnDemand);
    await connect(transport);
  };
  return server;
}
