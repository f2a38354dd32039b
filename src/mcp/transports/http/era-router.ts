import {
  classifyInboundRequest,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import type { Request as ExpressRequest, RequestHandler } from 'express';
import { markStreamable } from '../../sdk-internals/quiet-call-keepalive.js';
import { plainCallHeaders, type ModernPlainEntry } from '../../sdk-internals/modern-plain-entry.js';
import { acceptRefusal, acceptsEventStream } from './accept.js';
import type { AuthedRequest } from './guards.js';
import type { LegHandler } from './legacy-leg.js';
import { sendHeaderMismatch, toolCallHeaderRefusal } from './param-headers.js';
import { headerValue as header } from './request-headers.js';
import { HttpRpcError, sendRpcError } from './responses.js';
import type { WebBridge } from './web-bridge.js';
import { plainMessageKind } from '../../wire/json-rpc-shape.js';
import { isPlainObject } from '../../wire/plain-object.js';

const HANDSHAKE_VERSIONS = new Set(SUPPORTED_PROTOCOL_VERSIONS);

/**
 * The common case decided without the SDK classifier's schema checks: a single
 * well-formed JSON-RPC request or notification (`jsonrpc: "2.0"`, string `method`,
 * string/number `id` or none, object `params` or none) with no 2026-07-28 envelope claim
 * (no protocol-version key in `params._meta`) and no `MCP-Protocol-Version` header other
 * than a handshake revision is legacy: the classifier's `no-claim` / `initialize` /
 * `notification` outcomes. Anything else returns undefined and goes to the classifier.
 */
function plainLegacyMessage(body: unknown, versionHeader: string | undefined): boolean | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') return undefined;
  const { id, params } = body;
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') return undefined;
  if (params !== undefined && !isPlainObject(params)) return undefined;
  if (params && isPlainObject(params._meta) && PROTOCOL_VERSION_META_KEY in params._meta) return undefined;
  if (versionHeader !== undefined && !HANDSHAKE_VERSIONS.has(versionHeader)) return undefined;
  return true;
}

/**
 * The common 2026-07-28 case decided without the classifier: a plain request (`plainMessageKind`,
 * the shape the SDK's request schema accepts unchanged) other than `initialize` whose
 * `params._meta` carries the protocol-version claim. The classifier answers `modern` or a
 * rejection for it, never `legacy` (the claim alone decides; its checks, and their errors, are the
 * modern handler's). Saves its four schema parses (two of them failing) per modern request.
 */
function plainModernRequest(body: unknown): boolean {
  if (plainMessageKind(body) !== 'request') return false;
  const { method, params } = body as { method: string; params?: { _meta?: unknown } };
  if (method === 'initialize') return false;
  const meta = params?._meta;
  return isPlainObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * Whether a request belongs to the handshake era (2025-11-25 and earlier), decided
 * exactly as the SDK's `isLegacyRequest` decides it but from the already-parsed body
 * and the request's headers (`header(name)`, lower-case names), without building a web `Request` (and, for plain legacy
 * messages, without the classifier's schema checks): non-POST methods, POSTs
 * without a JSON body, and POSTs whose JSON-RPC message carries no 2026-07-28 `_meta`
 * envelope claim are legacy; everything else (including malformed modern requests,
 * whose errors the modern handler owns) is modern.
 */
export function isLegacyHttpRequest(
  method: string | undefined,
  header: (name: string) => string | undefined,
  body: unknown,
): boolean {
  if (method !== 'POST' || body === undefined) return true;
  const versionHeader = header('mcp-protocol-version');
  if (plainLegacyMessage(body, versionHeader)) return true;
  if (plainModernRequest(body)) return false;
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: versionHeader,
    mcpMethodHeader: header('mcp-method'),
    mcpNameHeader: header('mcp-name'),
    body,
  });
  return outcome.kind === 'legacy';
}

/**
 * The 2026-07-28 leg: the SDK's per-request handler, given the parsed body and the auth info.
 * A `tools/call` whose `Mcp-Param-*` headers disagree with its arguments (the tool's
 * `x-mcp-header` properties; `inputSchema` gives the listed input schema of a tool this caller
 * may call, else undefined) is refused first: HTTP 400, JSON-RPC -32020. With `plain`, a plain
 * `tools/call` (`plainCallHeaders`) is served past the SDK handler's entry (`modern-plain-entry.ts`).
 */
export function createModernLeg(
  handler: McpHttpHandler,
  bridge: WebBridge,
  inputSchema: (tool: string, auth: AuthInfo | undefined) => unknown = () => undefined,
  plain?: ModernPlainEntry,
): LegHandler {
  return async (req, res, body) => {
    const joined = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const refusal = toolCallHeaderRefusal(body, joined, (tool) => inputSchema(tool, req.auth));
    if (refusal) return sendHeaderMismatch(res, body, refusal);
    const streamable = acceptsEventStream(req as unknown as ExpressRequest);
    const headers = plain && plainCallHeaders(req.rawHeaders, body);
    return bridge(req, res, (request) => {
      if (streamable) markStreamable(request); // a quiet call may switch to SSE (keepalives)
      const served = headers && plain.serve(request, body, headers, req.auth);
      return served ?? handler.fetch(request, { authInfo: req.auth, parsedBody: body });
    });
  };
}

/**
 * The MCP endpoint's final handler: sends each request to the legacy or the modern
 * leg (body parsed once, upstream). A legacy request whose `Accept` does not allow the
 * response types is answered 406 (see {@link acceptRefusal}). A leg that throws is
 * logged and answered 500.
 */
export function eraRouter(legacy: LegHandler, modern: LegHandler, onError: (error: unknown) => void): RequestHandler {
  return (req: ExpressRequest, res) => {
    const body: unknown = req.body;
    const isLegacy = isLegacyHttpRequest(req.method, (name) => header(req, name), body);
    const refusal = isLegacy ? acceptRefusal(req) : undefined;
    if (refusal) return sendRpcError(res, 406, HttpRpcError.SERVER_ERROR, refusal);
    const leg = isLegacy ? legacy : modern;
    leg(req as AuthedRequest, res, body).catch((error: unknown) => {
      onError(error);
      sendRpcError(res, 500, HttpRpcError.INTERNAL_ERROR, 'Internal server error');
    });
  };
}
