import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  Server,
  WebStandardStreamableHTTPServerTransport,
  type Transport,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { checkCachedJsonResponse } from './cached-json-response.js';
import { sdkSseWriterMatches } from './cached-sse-writer.js';
import { admitStdioListens } from './listen-admission.js';
import { modernPlainEntryMismatch } from './modern-plain-entry.js';
import { nativeSessionPostMismatch } from './native-session-post.js';
import { checkQuietCallKeepalive } from './quiet-call-keepalive.js';
import { checkQuietClose } from './quiet-close.js';
import { contextSlotKeys } from './stable-context.js';
import {
  listenInterceptSkipped,
  modernQueueBypassMismatch,
  recognizeServeStdio,
  spareStdioChannelChecks,
} from './stdio-channel.js';
import { modernToolsCallMismatch } from './modern-envelope.js';
import { stdioToolsCallApplies, steadyTableFits } from './stdio-tools-call.js';
import { plainResultCopyApplies, toolsCallWrapperApplies } from './tools-call-wrapper.js';
import { upstreamClientShortcutsApply } from './upstream-client.js';

/** One shortcut into SDK internals and whether the installed SDK still allows it. */
export interface SdkShortcutReport {
  /** Which shortcut (the module of `sdk-internals/` that holds it). */
  readonly name: string;
  /** The SDK part it relies on. */
  readonly relies: string;
  /** True when the shortcut applies; false when the toolkit falls back to the SDK's own path. */
  readonly active: boolean;
  /** Why it fell back (absent when active). */
  readonly reason?: string;
}

/** A wire for `serveStdio` that sends nowhere: enough to see the channel it connects a server to. */
function silentWire(): Transport {
  return { async start() {}, async send() {}, async close() {} };
}

/** Whether `serveStdio` still connects servers to a private channel `accepts` (a shortcut's own self-check) takes. */
async function stdioChannelAccepted(accepts: (transport: Transport) => boolean): Promise<boolean> {
  let accepted = false;
  const wire = silentWire();
  const handle = serveStdio(
    () =>
      ({
        async connect(transport: Transport) {
          accepted = accepts(transport);
        },
        async close() {},
      }) as unknown as Server,
    { transport: wire },
  );
  wire.onmessage?.({ jsonrpc: '2.0', id: 0, method: 'ping' });
  await new Promise((resolve) => setImmediate(resolve));
  await handle.close();
  return accepted;
}

/** What `accepts` says of the channel `serveStdio` connects a 2026-07-28 server to (a real `Server`: the entry marks it modern). */
async function modernStdioChannelAccepted(accepts: (transport: Transport) => boolean): Promise<boolean> {
  let accepted = false;
  const wire = silentWire();
  const handle = serveStdio(
    () => {
      const server = new Server({ name: 'canary', version: '0' }, { capabilities: { tools: {} } });
      const connect = server.connect.bind(server);
      server.connect = (transport) => ((accepted = accepts(transport)), connect(transport));
      return server;
    },
    { transport: wire },
  );
  const meta = { [PROTOCOL_VERSION_META_KEY]: '2026-07-28', [CLIENT_CAPABILITIES_META_KEY]: {} };
  wire.onmessage?.({ jsonrpc: '2.0', id: 0, method: 'tools/list', params: { _meta: meta } });
  await new Promise((resolve) => setImmediate(resolve));
  await handle.close();
  return accepted;
}

/** Whether the installed v2 client (an optional peer: absent means nothing to shortcut) has what `upstream-client.ts` uses. */
async function upstreamClientShortcuts(): Promise<{ active: boolean; reason: string }> {
  const specifier = '@modelcontextprotocol/client'; // not followed by bundlers: optional
  const module = (await import(specifier).catch(() => undefined)) as
    { Client: new (info: { name: string; version: string }) => object } | undefined;
  if (!module) return { active: false, reason: '@modelcontextprotocol/client is not installed' };
  const active = upstreamClientShortcutsApply(new module.Client({ name: 'canary', version: '0' }));
  return { active, reason: 'Client has no _wireCodec/_setupTimeout/_cleanupTimeout: forwarded calls use callTool' };
}

/**
 * The upgrade canary: probes every shortcut `sdk-internals/` takes into the installed SDK's
 * private or protected parts and reports, per shortcut, whether it is active or fell back to the
 * SDK's own path. Each shortcut checks itself at run time too; this puts them in one list, so an
 * SDK upgrade shows at once which ones stopped applying (`test/mcp/sdk-canary.test.ts`).
 */
export async function checkSdkShortcuts(): Promise<SdkShortcutReport[]> {
  const proto = Server.prototype as unknown as Record<string, unknown>;
  const report = (name: string, relies: string, active: boolean, reason: string): SdkShortcutReport =>
    active ? { name, relies, active } : { name, relies, active, reason };
  let sseReason = 'the SDK writer changed';
  const sse = sdkSseWriterMatches(
    (WebStandardStreamableHTTPServerTransport.prototype as unknown as { writeSSEEvent?: unknown }).writeSSEEvent,
    (reason) => (sseReason = reason),
  );
  const probe = new WebStandardStreamableHTTPServerTransport({}) as unknown as {
    _streamMapping?: unknown;
    _requestToStreamMapping?: unknown;
    _standaloneSseStreamId?: unknown;
  };
  const streams = probe._streamMapping;
  const client = await upstreamClientShortcuts();
  const canaryServer = new Server({ name: 'canary', version: '0' });
  const nativePost = nativeSessionPostMismatch();
  const handlers = (canaryServer as unknown as { _requestHandlers?: unknown })._requestHandlers;
  const modernCall = modernToolsCallMismatch();
  recognizeServeStdio(serveStdio);
  const modernQueue = modernQueueBypassMismatch();
  return [
    report(
      'view-server',
      'Server._wrapHandler (protected hook)',
      typeof proto._wrapHandler === 'function',
      'Server has no _wrapHandler: schema failures would answer -32603 and task handles fail the result check',
    ),
    report(
      'direct-dispatch',
      'Protocol._onrequest, Protocol._onnotification',
      typeof proto._onrequest === 'function' && typeof proto._onnotification === 'function',
      'Protocol has no _onrequest/_onnotification',
    ),
    report(
      'stdio-channel',
      'StdioConnectionChannel deliver/send/_settle/_pendingRequests/_closed/_wire',
      await stdioChannelAccepted(spareStdioChannelChecks),
      'serveStdio connects a transport of another shape',
    ),
    report(
      'listen-admission',
      'StdioConnectionChannel._wire (the wire serveStdio sends listen acknowledgements on)',
      await stdioChannelAccepted((transport) => admitStdioListens(transport, () => true)),
      'serveStdio connects a transport of another shape: 2026-07-28 stdio acknowledgements list URIs the caller may not read (their updates are still withheld)',
    ),
    report('cached-sse-writer', 'WebStandardStreamableHTTPServerTransport.writeSSEEvent', sse, sseReason),
    report(
      'quiet-call-keepalive',
      'PerRequestHTTPServerTransport.upgradeToSse, _sse, _closed, _requestId, _deferredResponse',
      checkQuietCallKeepalive(),
      'PerRequestHTTPServerTransport has no upgradeToSse()',
    ),
    report(
      'cached-json-response',
      'PerRequestHTTPServerTransport.settleResponse, _closed, _terminalDelivered, _requestId, _responseMode, _sse',
      checkCachedJsonResponse(),
      'PerRequestHTTPServerTransport has no settleResponse() or changed its state fields',
    ),
    report(
      'transport-streams',
      'WebStandardStreamableHTTPServerTransport._streamMapping, _requestToStreamMapping, _standaloneSseStreamId',
      streams instanceof Map &&
        probe._requestToStreamMapping instanceof Map &&
        typeof probe._standaloneSseStreamId === 'string',
      'the transport has no _streamMapping or _requestToStreamMapping table or no _standaloneSseStreamId',
    ),
    report(
      'native-session-post',
      'WebStandardStreamableHTTPServerTransport handleRequest/handlePostRequest/validateSession/validateProtocolVersion/startKeepAlive/send (source fingerprints), _streamMapping, _requestToStreamMapping and state fields',
      nativePost === undefined,
      `${nativePost ?? ''}: legacy session POSTs go through the SDK transport (web Request/Response per request)`,
    ),
    report(
      'deferred-handlers',
      'Protocol._requestHandlers (a Map read with get/has), setRequestHandler, removeRequestHandler',
      handlers instanceof Map,
      'Protocol has no _requestHandlers map: every handler is installed when the view is made',
    ),
    report(
      'quiet-close',
      'Protocol._onclose, _responseHandlers, _requestHandlerAbortControllers',
      checkQuietClose(),
      'Protocol has no _onclose or changed its pending-request tables: every close captures a stack trace',
    ),
    report(
      'stable-context',
      'Server.buildContext (protected hook) appending keys to a spread of ctx.mcpReq',
      contextSlotKeys().length > 0,
      "buildContext adds no keys after mcpReq's own: the context is built the SDK's way (a new hidden class per request on Node 20)",
    ),
    report(
      'tools-call-wrapper',
      'Protocol._negotiatedWireCodec (validateRequest/validateResult), Server._invokeInputRequiredCapableHandler',
      toolsCallWrapperApplies(canaryServer),
      'Server has no _negotiatedWireCodec/_invokeInputRequiredCapableHandler: tools/call requests are parsed twice (the SDK wrapper)',
    ),
    report(
      'plain-result-copy',
      "the 2025-11-25 codec's CallToolResult copy of a text-only result",
      plainResultCopyApplies(canaryServer),
      'the codec copies a text-only result differently: every result goes through its schema',
    ),
    report(
      'stdio-tools-call',
      'Protocol._onrequest steps (_shouldDropInbound, _requestHandlers, _requestHandlerAbortControllers, codec era/checkInboundEnvelope/encodeResult/encodeErrorCode, _outboundServerInfo, _onerror), Server.buildContext, _resolveOutboundCodec, _notificationViaCodec, _requestWithSchema',
      stdioToolsCallApplies(canaryServer),
      "Protocol's request dispatch changed: stdio tools/call requests take the SDK's _onrequest (an AbortController and context closures per call)",
    ),
    report(
      'stdio-tools-call-2026',
      "Protocol._onrequest and Server._invokeInputRequiredCapableHandler (source fingerprints), _onrequest's envelope lift (probed on a server)",
      modernCall === undefined,
      `${modernCall ?? ''}: 2026-07-28 stdio tools/call requests take the SDK's _onrequest (the envelope lift, an AbortController and context closures per call)`,
    ),
    report(
      'stdio-listen-intercept',
      "serveStdio's outbound intercept of a 2026-07-28 channel (source fingerprint: notifications only)",
      await modernStdioChannelAccepted(listenInterceptSkipped),
      "serveStdio's 2026-07-28 intercept changed: every stdio result passes its zod notification check",
    ),
    report(
      'stdio-queue-2026',
      "serveStdio's source (its queue: processMessage on a pinned connection, tryServeListen; fingerprint)",
      modernQueue === undefined,
      `${modernQueue ?? ''}: 2026-07-28 stdio tools/call requests go through serveStdio's queue`,
    ),
    report(
      'steady-request-table',
      'Protocol._requestHandlerAbortControllers used by id (get/set/delete) and, on close, every value aborted (class source)',
      steadyTableFits(canaryServer),
      "the SDK uses its request table otherwise: stdio views add no hidden entry (Node 20 rebuilds the table's hash each time it empties)",
    ),
    report(
      'modern-plain-entry',
      'createMcpHandler handle/serveModern, Server (writeClientIdentity, installDiscoverHandler) and Protocol (writeNegotiatedProtocolVersion) (source fingerprints), _supportedProtocolVersions',
      modernPlainEntryMismatch() === undefined,
      `${modernPlainEntryMismatch() ?? ''}: plain 2026-07-28 tools/call requests go through the SDK handler's entry`,
    ),
    report(
      'upstream-client',
      'client Protocol._wireCodec().validateResult, _setupTimeout, _cleanupTimeout',
      client.active,
      client.reason,
    ),
  ];
}
