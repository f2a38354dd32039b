import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Request as ExpressRequest, RequestHandler } from 'express';
import type { AuthedRequest } from './guards.js';
import type { LegHandler } from './legacy-leg.js';
import { HttpRpcError, sendRpcError } from './responses.js';
import type { WebBridge } from './web-bridge.js';

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a request belongs to the handshake era (2025-11-25 and earlier), decided
 * exactly as the SDK's `isLegacyRequest` decides it but from the already-parsed body
 * and the Node headers, without building a web `Request`: non-POST methods, POSTs
 * without a JSON body, and POSTs whose JSON-RPC message carries no 2026-07-28 `_meta`
 * envelope claim are legacy; everything else (including malformed modern requests,
 * whose errors the modern handler owns) is modern.
 */
export function isLegacyHttpRequest(req: IncomingMessage, body: unknown): boolean {
  if (req.method !== 'POST' || body === undefined) return true;
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header(req, 'mcp-protocol-version'),
    mcpMethodHeader: header(req, 'mcp-method'),
    mcpNameHeader: header(req, 'mcp-name'),
    body,
  });
  return outcome.kind === 'legacy';
}

/** The 2026-07-28 leg: the SDK's per-request handler, given the parsed body and the auth info. */
export function createModernLeg(handler: McpHttpHandler, bridge: WebBridge): LegHandler {
  return (req, res, body) =>
    bridge(req, res, (request) => handler.fetch(request, { authInfo: req.auth, parsedBody: body }));
}

/**
 * The MCP endpoint's final handler: sends each request to the legacy or the modern
 * leg (body parsed once, upstream). A leg that throws is logged and answered 500.
 */
export function eraRouter(legacy: LegHandler, modern: LegHandler, onError: (error: unknown) => void): RequestHandler {
  return (req: ExpressRequest, res) => {
    const body: unknown = req.body;
    const leg = isLegacyHttpRequest(req, body) ? legacy : modern;
    leg(req as AuthedRequest, res, body).catch((error: unknown) => {
      onError(error);
      sendRpcError(res, 500, HttpRpcError.INTERNAL_ERROR, 'Internal server error');
    });
  };
}
