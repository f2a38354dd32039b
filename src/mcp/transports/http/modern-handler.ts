import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { answerCachedListsAsJson, checkCachedJsonResponse } from '../../sdk-internals/cached-json-response.js';
import { checkQuietCallKeepalive, keepQuietCallsAlive } from '../../sdk-internals/quiet-call-keepalive.js';
import type { TransportHost } from '../../server/transport-host.js';
import { listenWithReadAccess } from '../../sdk-internals/listen-admission.js';
import { createModernPlainEntry, type ModernPlainEntry } from '../../sdk-internals/modern-plain-entry.js';

/** Limits of the 2026-07-28 handler (the endpoint's resolved options). */
export interface ModernHandlerSettings {
  keepAliveMs: number;
  maxRequestBodyBytes: number;
  maxListenStreams: number;
}

/** The SDK's 2026-07-28 handler of a server, joined to its change fan-out. */
export interface ModernHandler {
  readonly handler: McpHttpHandler;
  /** With the Node bridge: plain 2026-07-28 `tools/call`s served past the handler's entry (same views, same transport). */
  readonly plain?: ModernPlainEntry;
  /** Leaves the fan-out and closes the handler's `subscriptions/listen` streams. */
  close(): Promise<void>;
}

/**
 * The SDK's per-request handler (`createMcpHandler`, legacy requests rejected: the caller routes them)
 * over the server's per-request views, quiet calls kept alive with SSE comments, `tools/list` answered
 * from the list's cached JSON, and its notifier added
 * to the server's change fan-out, so a toggle reaches every `subscriptions/listen` stream once, and a
 * listen stream's resource updates held to the caller's read access (`listenWithReadAccess`). Shared by
 * `HttpMcpServer`'s endpoint and the fetch handler.
 *
 * @param nodeBridge - the handler's responses are written by the Node bridge (`web-bridge.ts`), which
 *   writes a cached `tools/list` answer part by part: such an answer's body is then made only if read.
 */
export function createModernHandler(
  host: TransportHost,
  settings: ModernHandlerSettings,
  nodeBridge = false,
): ModernHandler {
  const { logger } = host;
  checkQuietCallKeepalive((reason) =>
    logger.warn({ reason }, 'SDK internals changed: quiet 2026-07-28 calls are not switched to SSE'),
  );
  checkCachedJsonResponse((reason) =>
    logger.warn({ reason }, 'SDK internals changed: 2026-07-28 tools/list answers are serialized per request'),
  );
  const factory = () =>
    keepQuietCallsAlive(answerCachedListsAsJson(host.createRequestScopedServer(), nodeBridge), settings.keepAliveMs);
  const onerror = (error: Error) => logger.debug({ err: error }, 'MCP modern-era request rejected');
  const sdkHandler = createMcpHandler(factory, {
    legacy: 'reject',
    onerror,
    keepAliveMs: settings.keepAliveMs,
    maxRequestBodySize: settings.maxRequestBodyBytes,
    maxSubscriptions: settings.maxListenStreams,
  });
  const plain = nodeBridge ? createModernPlainEntry(factory, settings.keepAliveMs, onerror) : undefined;
  const handler: McpHttpHandler = {
    ...sdkHandler,
    fetch: listenWithReadAccess(sdkHandler.fetch, (uri, auth) => host.mayRead(uri, auth), host.interest),
  };
  const removeSink = host.addSink(handler.notify);
  return {
    handler,
    ...(plain && { plain }),
    close: async () => {
      removeSink();
      await Promise.all([plain?.close(), handler.close()]);
    },
  };
}
