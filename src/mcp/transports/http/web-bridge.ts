import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { lazyRequire } from '../../../lazy-module.js';
import { wellFormedRefusal } from './well-formed-refusal.js';
import { recordRemoteAddress } from '../../context/request-origin.js';
import { cachedListParts } from '../../sdk-internals/cached-json-response.js';

// Part of the HTTP stack: loaded by the first HttpMcpServer, never by a stdio server.
const honoNode = lazyRequire<typeof import('@hono/node-server')>('@hono/node-server');
const honoResponse = lazyRequire<typeof import('@hono/node-server/utils/response')>('@hono/node-server/utils/response');

/** The `Content-Type` `@hono/node-server` gives a response with a body and none of its own. */
const HONO_DEFAULT_CONTENT_TYPE = 'text/plain; charset=UTF-8';

/**
 * Writes a plain JSON answer (`cachedListParts`: a cached `tools/list` or another plain result,
 * made with its body on demand) to the Node response part by part, with the status and headers `@hono/node-server` writes for a JSON body it
 * reads whole (its headers as a record, `set-cookie` as a list, its default content type, then
 * `content-length`), and returns hono's "already sent" answer; undefined (nothing written) for any
 * other response. The ~200 KB of a 1,000-tool list are then neither copied into one body nor read
 * back through a web stream (W4: the 2026-07-28 list cost 1.05-1.15x a session's before).
 */
function writeCachedList(response: Response, outgoing: ServerResponse): Response | undefined {
  const parts = cachedListParts(response);
  if (!parts || outgoing.headersSent) return undefined;
  const headers: Record<string, string | string[]> = {};
  const cookies: string[] = [];
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') cookies.push(value);
    else headers[name] = value;
  }
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  headers['content-type'] ??= HONO_DEFAULT_CONTENT_TYPE;
  if (!('content-length' in headers)) {
    const length = Buffer.byteLength(parts.before) + parts.tools.byteLength + Buffer.byteLength(parts.after);
    headers['content-length'] = String(length);
  }
  outgoing.writeHead(response.status, headers);
  if (parts.tools.byteLength === 0) {
    outgoing.end(parts.before + parts.after);
  } else {
    outgoing.write(parts.before);
    outgoing.write(parts.tools);
    outgoing.end(parts.after);
  }
  return alreadySent();
}

/** The answer a web handler returns when it wrote the Node response itself (hono then writes nothing). */
export function alreadySent(): Response {
  return honoResponse().RESPONSE_ALREADY_SENT;
}

/** A web-standard handler for one request (an SDK transport or the modern handler's `fetch`). */
export type WebHandler = (request: Request) => Promise<Response>;

/** Serves one Node request with a web-standard handler. */
export type WebBridge = (req: IncomingMessage, res: ServerResponse, handler: WebHandler) => Promise<void>;

/**
 * Creates the Node <-> fetch bridge both eras share: one `@hono/node-server` request
 * listener (the converter the SDK's own Node transport uses) built once, with the
 * per-request handler looked up by the Node request. Hono's `Request` is lazy: when
 * the handler is given a pre-parsed body it never touches the (already consumed) body
 * stream, so a body is read and parsed exactly once per request. Response bodies
 * (including SSE streams) are piped with backpressure; a client disconnect aborts
 * `request.signal`.
 *
 * @param onError - receives errors thrown by a handler; the client then gets a JSON-RPC 500.
 */
export function createWebBridge(onError: (error: unknown) => void): WebBridge {
  const handlers = new WeakMap<object, WebHandler>();
  const listener = honoNode().getRequestListener(
    (request, env) => {
      const handler = handlers.get(env.incoming);
      handlers.delete(env.incoming);
      if (!handler) throw new Error('web bridge: no handler registered for this request');
      recordRemoteAddress(request, env.incoming.socket.remoteAddress); // for `context.request.remoteAddress`
      return handler(request)
        .then(wellFormedRefusal)
        .then((response) => writeCachedList(response, env.outgoing as ServerResponse) ?? response);
    },
    {
      overrideGlobalObjects: false,
      errorHandler: (error) => {
        onError(error);
        return Response.json(
          {
            jsonrpc: '2.0',
            error: { code: ProtocolErrorCode.InternalError, message: 'Internal server error' },
            id: null,
          },
          { status: 500 },
        );
      },
    },
  );
  return (req, res, handler) => {
    handlers.set(req, handler);
    return listener(req, res);
  };
}
