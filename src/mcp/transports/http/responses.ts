import type { ServerResponse } from 'node:http';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { RefusalResponse } from '../../wire/json-rpc-shape.js';
import type { HttpRefusal } from './checks.js';

/**
 * JSON-RPC error codes the HTTP layer answers with (JSON-RPC 2.0 section 5.1, MCP Streamable
 * HTTP): the SDK's `ProtocolErrorCode` where JSON-RPC defines one, plus the two
 * implementation-defined server errors the SDK's own transports use (-32000, -32001), which
 * its enum does not name.
 */
export const HttpRpcError = {
  /** Invalid JSON was received (JSON-RPC `Parse error`). */
  PARSE_ERROR: ProtocolErrorCode.ParseError,
  /** Transport-level refusals: bad headers, body too large, unauthorized, busy (SDK convention). */
  SERVER_ERROR: -32000,
  /** `Mcp-Session-Id` names no live session (SDK convention, with HTTP 404). */
  SESSION_NOT_FOUND: -32001,
  /** Unexpected server failure (JSON-RPC `Internal error`). */
  INTERNAL_ERROR: ProtocolErrorCode.InternalError,
} as const;

/**
 * Answers an HTTP request with a JSON-RPC error object (`id: null`, since the request
 * could not be read or was refused before dispatch). Does nothing when the headers
 * were already sent.
 */
export function sendRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Answers an HTTP request with a prepared JSON-RPC error response (e.g. one carrying the request's id). */
export function sendRpcRefusal(res: ServerResponse, status: number, refusal: RefusalResponse): void {
  if (res.headersSent) return;
  const body = JSON.stringify(refusal);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Answers an HTTP request with a {@link HttpRefusal} (JSON-RPC error, `id: null`, its extra headers). */
export function sendHttpRefusal(res: ServerResponse, refusal: HttpRefusal): void {
  sendRpcError(res, refusal.status, refusal.code, refusal.message, refusal.headers);
}
