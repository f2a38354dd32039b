import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { lazyRequire } from '../../../lazy-module.js';
import { wellFormedRefusal } from './well-formed-refusal.js';
import { recordRemoteAddress } from '../../context/request-origin.js';

// Part of the HTTP stack: loaded by the first HttpMcpServer, never by a stdio server.
const honoNode = lazyRequire<typeof import('@hono/node-server')>('@hono/node-server');

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
      return handler(request).then(wellFormedRefusal);
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
