import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  isJsonContentType,
  LOG_LEVEL_META_KEY,
  McpServer,
  PerRequestHTTPServerTransport,
  Protocol,
  PROTOCOL_VERSION_META_KEY,
  SdkError,
  SdkErrorCode,
  Server,
  type AuthInfo,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';
import { changedSource } from './fingerprint.js';
import { plainMessageKind } from '../wire/json-rpc-shape.js';

/** The one modern revision the SDK (2.4) serves (`SUPPORTED_MODERN_PROTOCOL_VERSIONS`, not exported). */
const MODERN_REVISION = '2026-07-28';
const SERVED_MODERN_VERSIONS: readonly string[] = [MODERN_REVISION];
/** `decodeMcpParamValue`'s Base64 form starts so: such a name header takes the SDK's path. */
const ENCODED_NAME_PREFIX = '=?';

/**
 * Source fingerprints of what this module reproduces: `createMcpHandler` (its `handle` and
 * `serveModern`: the checks and the per-request steps), `Server` (its static block:
 * `writeClientIdentity`, `installDiscoverHandler`) and `Protocol` (`writeNegotiatedProtocolVersion`).
 * Any other source (another SDK version) turns the entry off. Two per name: the ESM and the CJS build.
 */
const KNOWN_FINGERPRINTS: Readonly<Record<string, readonly string[]>> = {
  createMcpHandler: ['1cb22856', '1517172a'],
  Server: ['a24d165e', '669a82d5'],
  Protocol: ['bab3bfdc', 'f96891b5'],
};

/** The private parts of a per-request `Server` (2.4) the SDK's `serveModern` sets and this module sets the same way. */
interface ServedServer {
  transport?: unknown;
  onclose?: () => void;
  _negotiatedProtocolVersion?: string;
  _supportedProtocolVersions: string[];
  _clientCapabilities?: unknown;
  _clientVersion?: unknown;
  _ondiscover(): unknown;
  setRequestHandler(method: string, handler: () => unknown): void;
  connect(transport: PerRequestHTTPServerTransport): Promise<void>;
  close(): Promise<void>;
}

let verdict: string | undefined | null = null;

/** Why the entry is off for the installed SDK (a changed source or field), or undefined when it applies. */
export function modernPlainEntryMismatch(): string | undefined {
  if (verdict !== null) return verdict;
  const changed = changedSource({ createMcpHandler, Server, Protocol }, KNOWN_FINGERPRINTS);
  verdict = changed === undefined ? undefined : `${changed} changed`;
  const probe = new Server({ name: 'canary', version: '0' }) as unknown as Partial<ServedServer>;
  if (verdict === undefined && !(Array.isArray(probe._supportedProtocolVersions) && 'transport' in probe)) {
    verdict = 'Server changed its state fields';
  }
  return verdict;
}

let enabled = true;

/** How many requests the entry served (tests see that it took them). */
export const modernPlainEntryProbe = { served: 0 };

/** Turns the entry on or off (tests compare both paths); returns the previous setting. */
export function setModernPlainEntry(on: boolean): boolean {
  const previous = enabled;
  enabled = on;
  return previous;
}

/** The standard headers of a request the entry takes (each sent once). */
export interface PlainCallHeaders {
  readonly version: string;
  readonly method: string;
  readonly name: string;
}

const WANTED = ['content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;

/**
 * The standard headers of a plain 2026-07-28 `tools/call` the entry may serve, from the Node
 * request's raw headers, or undefined (the SDK's handler then serves it): a request
 * `plainMessageKind` accepts, with the protocol-version claim in `_meta` and no progress token,
 * log level, task or input-required material; each of the four headers sent once (the SDK reads
 * them from a `Headers` that joins repeats), a JSON `Content-Type`, `MCP-Protocol-Version`,
 * `Mcp-Method` and an `Mcp-Name` equal to `params.name` as sent (so the SDK's standard-header
 * check passes; a Base64 form takes the SDK's path).
 */
export function plainCallHeaders(rawHeaders: readonly string[], body: unknown): PlainCallHeaders | undefined {
  if (!enabled || plainMessageKind(body) !== 'request') return undefined;
  const { method, params } = body as { method: string; params?: Record<string, unknown> };
  if (method !== 'tools/call' || !params || typeof params.name !== 'string') return undefined;
  if ('task' in params || 'inputResponses' in params || 'requestState' in params) return undefined;
  const meta = params._meta as Record<string, unknown> | undefined;
  if (!meta || !(PROTOCOL_VERSION_META_KEY in meta) || 'progressToken' in meta || LOG_LEVEL_META_KEY in meta) {
    return undefined;
  }
  const seen: (string | undefined)[] = [undefined, undefined, undefined, undefined];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const at = WANTED.indexOf(rawHeaders[index]!.toLowerCase() as (typeof WANTED)[number]);
    if (at < 0) continue;
    if (seen[at] !== undefined) return undefined;
    seen[at] = rawHeaders[index + 1]!;
  }
  const [type, version, mcpMethod, name] = seen;
  if (!isJsonContentType(type ?? null) || version === undefined || mcpMethod === undefined) return undefined;
  if (name !== params.name || name.startsWith(ENCODED_NAME_PREFIX)) return undefined;
  return { version, method: mcpMethod, name };
}

/** Serves the requests {@link plainCallHeaders} admitted; `close` ends the ones in flight. */
export interface ModernPlainEntry {
  /** The answer, or undefined (nothing done) when the SDK's handler must serve the request. */
  serve(
    request: Request,
    body: unknown,
    headers: PlainCallHeaders,
    authInfo: AuthInfo | undefined,
  ): Promise<Response> | undefined;
  close(): Promise<void>;
}

/** The SDK's `jsonRpcErrorResponse(500, -32603, 'Internal server error', undefined, id)` (2.4). */
function internalServerError(id: unknown): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id },
    { status: 500 },
  );
}

/**
 * The SDK's per-request handler (`createMcpHandler`, 2.4) for one plain 2026-07-28 `tools/call`,
 * without its entry: the classification (`classifyInboundRequest`, the SDK's own, kept), then
 * `serveModern`'s steps for a request whose revision, standard headers and capabilities pass (the
 * view is a `Server`, so no `x-mcp-header` or scope-challenge step): a view from `factory`, its
 * negotiated version, `server/discover` and client identity set as the SDK sets them, tracked until
 * it closes, and `invoke`: the SDK's `PerRequestHTTPServerTransport` connected and handed the
 * message, which runs the SDK's dispatch, notifications, keepalives and cancellation as before. What
 * it leaves out is the `handle`/`fetchFace` frames, the `Content-Type` and header re-reads through a
 * web `Headers`, and their promises: ~10% of a call's instructions (docs/performance.md, #30).
 *
 * @param factory - the SDK handler's own factory (same views).
 * @param onerror - the SDK handler's `onerror` (the same reports).
 */
export function createModernPlainEntry(
  factory: () => unknown,
  keepAliveMs: number,
  onerror: (error: Error) => void,
): ModernPlainEntry {
  const inflight = new Set<ServedServer>();
  let closed = false;
  const reportError = (error: unknown) => {
    try {
      onerror(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // as the SDK's reportError: a throwing onerror changes nothing
    }
  };
  const serveView = async (
    server: ServedServer,
    message: JSONRPCRequest,
    classification: unknown,
    request: Request,
    authInfo?: AuthInfo,
  ) => {
    const meta = message.params!._meta as Record<string, unknown>;
    server._negotiatedProtocolVersion = MODERN_REVISION;
    const missing = SERVED_MODERN_VERSIONS.filter((version) => !server._supportedProtocolVersions.includes(version));
    if (missing.length > 0) server._supportedProtocolVersions = [...server._supportedProtocolVersions, ...missing];
    server.setRequestHandler('server/discover', () => server._ondiscover());
    const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
    const clientInfo = meta[CLIENT_INFO_META_KEY];
    if (capabilities !== undefined) server._clientCapabilities = capabilities;
    if (clientInfo !== undefined) server._clientVersion = clientInfo;
    const previousOnClose = server.onclose;
    inflight.add(server);
    const onExchangeClose = () => {
      inflight.delete(server);
      if (server.onclose === onExchangeClose) server.onclose = previousOnClose;
      previousOnClose?.();
    };
    server.onclose = onExchangeClose;
    try {
      const transport = new PerRequestHTTPServerTransport({ classification: classification as never, keepAliveMs });
      await server.connect(transport);
      return await transport.handleMessage(message, { request, ...(authInfo !== undefined && { authInfo }) });
    } catch (error) {
      if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
        return new Response(null, { status: 499 });
      }
      await server.close().catch(() => {});
      inflight.delete(server);
      reportError(error);
      return internalServerError(message.id);
    }
  };
  return {
    serve(request, body, headers, authInfo) {
      if (closed || modernPlainEntryMismatch() !== undefined) return undefined;
      const route = classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: headers.version,
        mcpMethodHeader: headers.method,
        mcpNameHeader: headers.name,
        body,
      }) as { kind: string; messageKind?: string; classification?: { revision?: string } };
      if (route.kind !== 'modern' || route.messageKind !== 'request') return undefined;
      if (route.classification?.revision !== MODERN_REVISION) return undefined;
      let product: unknown;
      try {
        product = factory();
      } catch {
        return undefined; // the SDK's handler calls it again and answers its failure
      }
      if (product instanceof McpServer || (product as ServedServer).transport !== undefined) {
        void (product as ServedServer).close().catch(reportError);
        return undefined;
      }
      modernPlainEntryProbe.served += 1;
      return serveView(product as ServedServer, body as JSONRPCRequest, route.classification, request, authInfo);
    },
    async close() {
      closed = true;
      const closing = [...inflight].map((server) => server.close().catch(() => {}));
      inflight.clear();
      await Promise.all(closing);
    },
  };
}
