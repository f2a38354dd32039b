import type { ServerResponse } from 'node:http';
import {
  legacyStatelessFallback,
  type AuthInfo,
  type McpServerFactory,
  type Server,
} from '@modelcontextprotocol/server';
import type { AuthedRequest } from './guards.js';
import { headerValue } from './request-headers.js';
import { LegacySession, type LegacyTransportSettings } from './legacy-session.js';
import { invalidInitializeResponse } from '../../wire/json-rpc-shape.js';
import { HttpRpcError, sendRpcError, sendRpcRefusal } from './responses.js';
import type { SessionMap } from './session-map.js';
import { principalOf } from '../../../auth/principal.js';
import { alreadySent, type WebBridge } from './web-bridge.js';
import { forgetClosedRequest } from '../../sdk-internals/transport-streams.js';

/** Serves one request of one era; `body` is the parsed JSON body (undefined for GET/DELETE). */
export type LegHandler = (req: AuthedRequest, res: ServerResponse, body: unknown) => Promise<void>;

/** What the sessionful legacy leg needs from the server. */
export interface SessionfulLegOptions {
  /** Makes and tracks a fresh view for a new session (`createFreshMcpServer`). */
  createView(authInfo: AuthInfo | undefined): Server;
  sessions: SessionMap<LegacySession>;
  maxSessions: number;
  bridge: WebBridge;
  transport: LegacyTransportSettings;
  onError(error: unknown): void;
}

/**
 * The principal a session is bound to: the `clientId`, plus the token's subject when the
 * resource server authenticated it (one OAuth client serves many users; another user's token
 * must not reach a session opened by the first).
 */
function ownerOf(auth: AuthInfo | undefined): string | undefined {
  if (!auth) return undefined;
  const subject = principalOf(auth)?.subject;
  return subject === undefined ? auth.clientId : `${auth.clientId}\u0000${subject}`;
}

/** Whether the body is an `initialize` request, valid or not (the body is one JSON-RPC message, see `json-body.ts`). */
function isInitialize(body: unknown): body is { id?: unknown } {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

/**
 * The handshake-era leg with sessions (MCP 2025-11-25, Streamable HTTP, session
 * management): `initialize` without `Mcp-Session-Id` opens a session with its own
 * view; later POST / GET (SSE stream) / DELETE name it in `Mcp-Session-Id`. A missing
 * id answers 400, an unknown or expired one 404 (clients then re-initialize), and a
 * session opened by one authenticated principal (`clientId`, and the token's subject) is unknown (404) to any other.
 */
export function createSessionfulLeg(options: SessionfulLegOptions): LegHandler {
  const { sessions, bridge } = options;

  const initialize: LegHandler = async (req, res, body) => {
    if (!sessions.reserve()) {
      return sendRpcError(
        res,
        503,
        HttpRpcError.SERVER_ERROR,
        `Service Unavailable: the session limit (${options.maxSessions}) is reached; retry later`,
        { 'Retry-After': '5' },
      );
    }
    let reserved = true;
    let session: LegacySession | undefined;
    try {
      const clientId = req.auth?.clientId;
      const owner = ownerOf(req.auth);
      const opened = new LegacySession(options.createView(req.auth), sessions, options.transport, (id) => {
        reserved = false;
        sessions.add(id, opened, clientId, owner);
        sessions.begin(id);
        res.once('close', () => sessions.end(id));
      });
      session = opened;
      await opened.connect(sessions);
      await bridge(req, res, (request) =>
        opened.transport.handleRequest(request, { authInfo: req.auth, parsedBody: body }),
      );
    } finally {
      if (reserved) {
        sessions.release(); // initialize failed or was refused: no session came to be
        session?.close().catch(options.onError);
      }
    }
  };

  return async (req, res, body) => {
    const id = headerValue(req, 'mcp-session-id');
    if (id === undefined) {
      if (req.method === 'POST' && isInitialize(body)) {
        // A malformed initialize (say, without `capabilities`) is answered as one: -32602 naming the field.
        const invalid = invalidInitializeResponse(body);
        return invalid ? sendRpcRefusal(res, 400, invalid) : initialize(req, res, body);
      }
      return sendRpcError(
        res,
        400,
        HttpRpcError.SERVER_ERROR,
        'Bad Request: Mcp-Session-Id header is required (send initialize first to open a session)',
      );
    }
    const entry = sessions.get(id);
    if (!entry || (entry.owner !== undefined && entry.owner !== ownerOf(req.auth))) {
      return sendRpcError(res, 404, HttpRpcError.SESSION_NOT_FOUND, 'Session not found');
    }
    sessions.begin(id);
    res.once('close', () => sessions.end(id));
    const { session } = entry;
    if (req.method === 'GET') await session.replaceStream(headerValue(req, 'last-event-id'));
    // DELETE closes the transport and every stream at once: answer the session's running calls first.
    if (req.method === 'DELETE') await session.abortCalls('The session was deleted during the call.');
    if (req.method === 'POST') abortOnDisconnect(res, session, body);
    await bridge(req, res, async (request) => {
      const native = req.method === 'POST' && session.servePlainPost(request, res, body, req.auth, alreadySent());
      if (native) return native;
      const response = await session.transport.handleRequest(request, { authInfo: req.auth, parsedBody: body });
      // A cancelled request gets no response (MCP cancellation), so end its POST stream here:
      // otherwise it stays open, with keepalives, and the session is never idle.
      for (const requestId of cancelledRequestIds(body)) {
        session.transport.closeSSEStream(requestId);
        // Without an event store nothing can resume it: forget the request (the SDK forgets only answered ones).
        if (!session.resumable) forgetClosedRequest(session.transport, requestId);
      }
      if (req.method === 'GET' && response.status === 200) {
        session.streamOpened();
        res.once('close', () => session.streamClosed());
      }
      return response;
    });
  };
}

/**
 * The handshake-era leg without sessions (the `stateless` option): every POST is
 * answered by a fresh, untracked view through the SDK's stateless fallback; GET and
 * DELETE answer 405. Legacy clients get no change notifications in this mode.
 */
export function createStatelessLeg(
  factory: McpServerFactory,
  bridge: WebBridge,
  maxRequestBodyBytes: number,
  onError: (error: Error) => void,
): LegHandler {
  const fallback = legacyStatelessFallback(factory, onError, { maxRequestBodySize: maxRequestBodyBytes });
  return (req, res, body) => bridge(req, res, (request) => fallback(request, { authInfo: req.auth, parsedBody: body }));
}

/**
 * When a POST's connection dies before its response was complete, the calls it carried
 * are aborted (reason `disconnected`): nobody can receive their results any more. Not in a
 * resumable session (event store): there the client may resume the stream and get them.
 */
function abortOnDisconnect(res: ServerResponse, session: LegacySession, body: unknown): void {
  const ids = session.resumable ? [] : requestIds(body);
  if (ids.length === 0) return;
  res.once('close', () => {
    if (!res.writableFinished) {
      void session.abortCalls('The client connection closed during the call.', ids);
    }
  });
}

/** The ids of the requests (not notifications or responses) in a POST body (single or batch). */
function requestIds(body: unknown): Array<string | number> {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message: unknown) => {
    if (!message || typeof message !== 'object') return [];
    const { id, method } = message as { id?: unknown; method?: unknown };
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
  });
}

/** The request ids named by `notifications/cancelled` messages in a POST body (single or batch). */
function cancelledRequestIds(body: unknown): Array<string | number> {
  const messages = Array.isArray(body) ? body : [body];
  const ids: Array<string | number> = [];
  for (const message of messages) {
    if (
      message &&
      typeof message === 'object' &&
      (message as { method?: unknown }).method === 'notifications/cancelled'
    ) {
      const id = (message as { params?: { requestId?: unknown } }).params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') ids.push(id);
    }
  }
  return ids;
}
