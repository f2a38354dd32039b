import { legacyStatelessFallback, type AuthInfo } from '@modelcontextprotocol/server';
import Negotiator from 'negotiator';
import { METADATA_PATH } from '../../../auth/protected-resource.js';
import { ResourceServer } from '../../../auth/resource-server.js';
import { ServerStateError } from '../../../errors.js';
import { markStreamable } from '../../sdk-internals/quiet-call-keepalive.js';
import type { TransportHost } from '../../server/transport-host.js';
import type { RefusalResponse } from '../../wire/json-rpc-shape.js';
import { checkAccept } from '../http/accept.js';
import { authenticateWith, hostOriginRefusal, methodRefusal, scopeRefusal, type HttpRefusal } from '../http/checks.js';
import { isLegacyHttpRequest } from '../http/era-router.js';
import { createModernHandler } from '../http/modern-handler.js';
import { headerMismatchJson, toolCallHeaderRefusal } from '../http/param-headers.js';
import { HttpRpcError } from '../http/responses.js';
import { wellFormedRefusal } from '../http/well-formed-refusal.js';
import { readFetchBody } from './fetch-body.js';
import { resolveFetchOptions, type FetchAuthenticateHook, type FetchHandlerOptions } from './fetch-options.js';

/**
 * A web-standard MCP endpoint: `(request) => Promise<Response>`, as Bun's `Bun.serve`, Deno's
 * `Deno.serve`, a Cloudflare Worker's `fetch` or Node through `@hono/node-server` / `srvx` call it.
 */
export interface FetchHandler {
  (request: Request): Promise<Response>;
  /** Closes the handler's open `subscriptions/listen` streams and leaves the server's change fan-out. */
  close(): Promise<void>;
}

function json(status: number, payload: string, headers: Record<string, string> = {}): Response {
  return new Response(payload, { status, headers: { ...headers, 'Content-Type': 'application/json' } });
}

function refusalResponse(refusal: HttpRefusal): Response {
  const payload = JSON.stringify({ jsonrpc: '2.0', error: { code: refusal.code, message: refusal.message }, id: null });
  return json(refusal.status, payload, refusal.headers);
}

const rpcRefusalResponse = (status: number, refusal: RefusalResponse) => json(status, JSON.stringify(refusal));

const notFound = (path: string) =>
  refusalResponse({ status: 404, code: HttpRpcError.SERVER_ERROR, message: `Not Found: the MCP endpoint is ${path}` });

/** Whether a request's `Accept` allows `type` (RFC 9110 media ranges and q-values, as express reads them). */
function acceptsType(accept: string | null): (type: string) => boolean {
  const negotiator = new Negotiator({ headers: { accept: accept ?? undefined } });
  return (type) => negotiator.mediaTypes([type]).length > 0;
}

/** A copy of `request` without its (already read) body, with `Accept` replaced (the SDK checks it by substring). */
function withAccept(request: Request, accept: string): Request {
  const headers = new Headers(request.headers);
  headers.set('accept', accept);
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}

/**
 * Builds the fetch handler of a server (its {@link TransportHost}). Every request passes the checks
 * `HttpMcpServer` makes, from the same modules: method (405), `Host`/`Origin` (403, when configured),
 * authentication (`authenticate` or `authorization`, 401/403 with `WWW-Authenticate`), body (415, 413,
 * 400 -32700 / -32600), step-up scopes (403); then 2026-07-28 requests go to the SDK's per-request
 * handler (tool `Mcp-Param-*` headers checked, 400 -32020) and handshake-era ones to the SDK's stateless
 * fallback (a fresh view per POST, `Accept` checked per RFC 9110, 406; GET and DELETE 405).
 * @param beforeRequest - awaited before each request is served (a lazy `start()`); a `ServerStateError` it
 *   throws (the server was stopped) is answered 503.
 * @throws InvalidOptionsError on bad options (see `resolveFetchOptions`).
 */
export function createFetchHandler(
  host: TransportHost,
  options: FetchHandlerOptions = {},
  beforeRequest?: () => Promise<void>,
): FetchHandler {
  const resolved = resolveFetchOptions(options, host.serverName);
  const { logger } = host;
  const { path } = resolved;
  const modern = createModernHandler(host, resolved);
  const legacy = legacyStatelessFallback(
    () => host.createStatelessLegacyServer(),
    (error) => logger.debug({ err: error }, 'MCP stateless legacy request rejected'),
    { maxRequestBodySize: resolved.maxRequestBodyBytes },
  );
  const rs = options.authorization ? new ResourceServer(options.authorization, host.serverName) : undefined;
  const metadataPaths = new Set([METADATA_PATH, `${METADATA_PATH}${path.replace(/\/+$/, '')}`]);
  const resourceOf = (url: URL) => (rs ? rs.resource(`${url.origin}${path}`) : `${url.origin}${path}`);
  const hook: FetchAuthenticateHook | undefined = rs
    ? (request) =>
        rs.authenticate(
          { authorization: request.headers.get('authorization') ?? undefined, url: request.url },
          resourceOf(new URL(request.url)),
        )
    : options.authenticate;
  const authSettings = {
    defaultChallenge: resolved.authChallenge,
    resourceMetadataUrl: resolved.resourceMetadataUrl,
    logger,
  };

  const serve = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (rs && metadataPaths.has(url.pathname)) {
      const headers = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=300' };
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers });
      return json(200, JSON.stringify(rs.metadata(resourceOf(url))), headers);
    }
    if (url.pathname !== path) return notFound(path);
    const early =
      methodRefusal(request.method, false) ??
      hostOriginRefusal(
        request.headers.get('host') ?? url.host, // a Request made in process (undici) carries no Host header
        request.headers.get('origin') ?? undefined,
        resolved.allowedHosts,
        resolved.allowedOrigins,
      );
    if (early) return refusalResponse(early);
    let authInfo: AuthInfo | undefined;
    if (hook) {
      const outcome = await authenticateWith(() => hook(request), authSettings);
      if ('refusal' in outcome) return refusalResponse(outcome.refusal);
      authInfo = outcome.auth;
    }
    let body: unknown;
    if (request.method === 'POST') {
      const read = await readFetchBody(request, resolved.maxRequestBodyBytes);
      if ('refusal' in read) return refusalResponse(read.refusal);
      if ('response' in read) return rpcRefusalResponse(400, read.response);
      body = read.body;
      const scopes = rs && scopeRefusal(rs, resourceOf(url), body, authInfo, host.requiredScopes);
      if (scopes) return refusalResponse(scopes);
    }
    const header = (name: string) => request.headers.get(name) ?? undefined;
    const accept = request.headers.get('accept');
    if (isLegacyHttpRequest(request.method, header, body)) {
      const checked = checkAccept(request.method, accept ?? undefined, acceptsType(accept));
      if (checked.refusal) {
        return refusalResponse({ status: 406, code: HttpRpcError.SERVER_ERROR, message: checked.refusal });
      }
      const forwarded = checked.rewritten ? withAccept(request, checked.rewritten) : request;
      return legacy(forwarded, { authInfo, parsedBody: body });
    }
    const mismatch = toolCallHeaderRefusal(body, header, (tool) => host.inputSchema(tool, authInfo));
    if (mismatch) return json(400, headerMismatchJson(body, mismatch));
    if (accept?.trim() && acceptsType(accept)('text/event-stream')) markStreamable(request);
    return modern.handler.fetch(request, { authInfo, parsedBody: body });
  };

  const handler = async (request: Request): Promise<Response> => {
    try {
      await beforeRequest?.();
      return await wellFormedRefusal(await serve(request));
    } catch (error) {
      if (error instanceof ServerStateError) {
        return refusalResponse({
          status: 503,
          code: HttpRpcError.SERVER_ERROR,
          message: `Service Unavailable: ${error.message}`,
        });
      }
      logger.error({ err: error }, 'MCP fetch request failed');
      return refusalResponse({ status: 500, code: HttpRpcError.INTERNAL_ERROR, message: 'Internal server error' });
    }
  };
  return Object.assign(handler, { close: () => modern.close() });
}
