import {
  isJsonContentType,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/server';
import { plainMessageKind } from '../wire/json-rpc-shape.js';
import { fingerprint } from './fingerprint.js';

/** What the SDK's SSE writer encodes with (a `TextEncoder`). */
interface Encoder {
  encode(input: string): Uint8Array;
}

/** A stream entry of the transport's table (2.4), as `handlePostRequest` makes it for an SSE answer. */
interface StreamEntry {
  controller: SseSink;
  encoder: Encoder;
  cleanup: () => void;
}

/** What the transport writes an answer's events through (see `transports/http/node-sse-answer.ts`). */
export interface SseSink {
  enqueue(chunk: Uint8Array): void;
  close(): void;
  /** The answer will not be sent (the SDK answered with an error instead): write nothing, ever. */
  discard(): void;
}

/** The private parts of `WebStandardStreamableHTTPServerTransport` (2.4) the native POST reads and writes. */
interface TransportParts {
  _closed: boolean;
  _initialized: boolean;
  _enableJsonResponse: boolean;
  _enableDnsRebindingProtection: boolean;
  _eventStore?: unknown;
  _scopeChallengeResolver?: unknown;
  _supportedProtocolVersions: readonly string[];
  _streamMapping: Map<string, StreamEntry>;
  _requestToStreamMapping: Map<string | number, string>;
  sessionId?: string;
  onerror?: (error: Error) => void;
  createJsonErrorResponse(status: number, code: number, message: string, options?: { data?: string }): Response;
  sessionIdGenerator?: () => string;
  startKeepAlive(controller: SseSink, encoder: Encoder): ReturnType<typeof setInterval> | undefined;
  onmessage?: (message: JSONRPCMessage, extra: MessageExtraInfo) => void;
}

/**
 * Fingerprints of the SDK 2.4 methods whose behaviour the native POST reproduces for its one case
 * (a plain single request to an initialized session, no event store, JSON-RPC SSE answer), as
 * its ESM and CommonJS builds print them. Any change to them in another SDK version turns the
 * shortcut off: the SDK's own path is then used (and the canary test says so).
 */
const KNOWN_FINGERPRINTS: Readonly<Record<string, readonly string[]>> = {
  handleRequest: ['39a2d510'],
  handlePostRequest: ['237e5846', '17c313e1'],
  validateSession: ['14e3bd21'],
  validateProtocolVersion: ['8d08209a'],
  startKeepAlive: ['6a7c7a27', '184f46bd'],
  send: ['d0a26c02', '0b1b8892'],
};

let verdict: string | undefined | null = null;

/** Tests compare the native answers with the SDK's: `enabled: false` sends every POST to the SDK; `served` counts native answers. */
export const nativeSessionPostProbe = { enabled: true, served: 0 };

/**
 * Whether the installed SDK's transport is the one the native POST reproduces: the fields it
 * uses on a fresh instance, and the source of each reproduced method unchanged. Computed once;
 * returns the reason when it does not apply, undefined when it does.
 */
export function nativeSessionPostMismatch(): string | undefined {
  if (verdict !== null) return verdict;
  const proto = WebStandardStreamableHTTPServerTransport.prototype as unknown as Record<string, unknown>;
  const probe = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => 'probe',
  }) as unknown as TransportParts;
  verdict = undefined;
  for (const [name, known] of Object.entries(KNOWN_FINGERPRINTS)) {
    const method = proto[name];
    if (typeof method !== 'function' || !known.includes(fingerprint(String(method)))) {
      verdict = `WebStandardStreamableHTTPServerTransport.${name} changed`;
      break;
    }
  }
  if (
    verdict === undefined &&
    !(
      probe._streamMapping instanceof Map &&
      probe._requestToStreamMapping instanceof Map &&
      probe._closed === false &&
      probe._initialized === false &&
      probe._enableJsonResponse === false &&
      probe._enableDnsRebindingProtection === false &&
      Array.isArray(probe._supportedProtocolVersions)
    )
  ) {
    verdict = 'the transport state fields changed';
  }
  return verdict;
}

/** The headers the SDK gives a POST's SSE answer, as `@hono/node-server` writes them (lower-case, sorted). */
export function sseAnswerHeaders(sessionId: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'content-type': 'text/event-stream',
  };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  headers['x-accel-buffering'] = 'no';
  return headers;
}

/** Shared by every native answer: `TextEncoder` keeps no state between `encode` calls. */
const ENCODER: Encoder = new TextEncoder();

/**
 * Serves a POST to an established legacy session the way the SDK transport's `handleRequest`
 * does for its most common case, without a web `Response` and web stream per request and without
 * the transport's schema parses of the body: one plain JSON-RPC request (not `initialize`; a
 * body `plainMessageKind` calls a request, which `JSONRPCMessageSchema` accepts unchanged and
 * `isInitializeRequest` refuses) to an open, initialized session without an event store, scope
 * challenges, JSON answers or DNS-rebinding checks, whose `Accept`, `Content-Type`,
 * `Mcp-Session-Id` and `MCP-Protocol-Version` headers pass the transport's checks. The request
 * then goes to the view exactly as the SDK hands it over (`onmessage` with the same extra), its
 * stream is registered in the transport's tables as the SDK registers it (so the SDK's `send`
 * writes its events and ends it), with the SDK's keepalives, and `open(headers, onCancel)` makes
 * the sink the events are written to.
 *
 * @returns `answering` when the sink answers; the SDK's error response when `onmessage` threw (as
 *   `handlePostRequest` answers then); undefined, having touched nothing, for anything else
 *   (including every request the SDK would refuse): the caller then hands it to the SDK transport.
 */
export function serveNativeSessionPost(
  transport: WebStandardStreamableHTTPServerTransport,
  request: Request,
  body: unknown,
  authInfo: AuthInfo | undefined,
  open: (headers: Record<string, string>, onCancel: () => void) => SseSink,
  answering: Response,
): Response | undefined {
  if (!nativeSessionPostProbe.enabled || nativeSessionPostMismatch() !== undefined) return undefined;
  const t = transport as unknown as TransportParts;
  if (
    t._closed ||
    !t._initialized ||
    t._enableJsonResponse ||
    t._enableDnsRebindingProtection ||
    t._eventStore !== undefined ||
    t._scopeChallengeResolver !== undefined ||
    t.sessionIdGenerator === undefined ||
    plainMessageKind(body) !== 'request' ||
    (body as { method: string }).method === 'initialize'
  ) {
    return undefined;
  }
  const headers = request.headers;
  const accept = headers.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(headers.get('content-type'))) return undefined;
  if (headers.get('mcp-session-id') !== t.sessionId) return undefined;
  const version = headers.get('mcp-protocol-version');
  if (version !== null && !t._supportedProtocolVersions.includes(version)) return undefined;

  const message = body as JSONRPCMessage & { id: string | number };
  const streamId = crypto.randomUUID();
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const sink = open(sseAnswerHeaders(t.sessionId), () => {
    if (keepAlive !== undefined) clearInterval(keepAlive);
    if (t._streamMapping.get(streamId)?.controller === sink) t._streamMapping.delete(streamId);
  });
  t._streamMapping.set(streamId, {
    controller: sink,
    encoder: ENCODER,
    cleanup: () => {
      if (keepAlive !== undefined) clearInterval(keepAlive);
      t._streamMapping.delete(streamId);
      try {
        sink.close();
      } catch {
        // already closed, as the SDK's web stream
      }
    },
  });
  t._requestToStreamMapping.set(message.id, streamId);
  try {
    t.onmessage?.(message, { authInfo, request, closeSSEStream: undefined, closeStandaloneSSEStream: undefined });
  } catch (error) {
    // handlePostRequest's catch-all: its stream is left registered and never read.
    sink.discard();
    t.onerror?.(error as Error);
    return t.createJsonErrorResponse(400, -32700, 'Parse error', { data: String(error) });
  }
  if (t._streamMapping.get(streamId)?.controller === sink) keepAlive = t.startKeepAlive(sink, ENCODER);
  nativeSessionPostProbe.served += 1;
  return answering;
}
