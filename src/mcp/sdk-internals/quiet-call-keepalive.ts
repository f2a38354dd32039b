import { PerRequestHTTPServerTransport, type Server, type Transport } from '@modelcontextprotocol/server';

/** The parts of the SDK's per-request transport (2.4, private) this module relies on. */
interface PerRequestInternals {
  upgradeToSse?: () => void;
  _sse?: unknown;
  _closed?: boolean;
  _requestId?: unknown;
  _deferredResponse?: { settled: boolean };
}

/** Web requests (2026-07-28 POSTs) whose `Accept` allows `text/event-stream` (set by the modern leg). */
const streamable = new WeakSet<object>();

/** Records that the client of `request` accepts an event-stream response (RFC 9110 negotiation upstream). */
export function markStreamable(request: Request): void {
  streamable.add(request);
}

let verdict: boolean | undefined;

/**
 * The start-up self-check: whether the SDK's per-request transport still has the private
 * `upgradeToSse()` this module calls. Computed once; the first `false` goes to `onMismatch`.
 */
export function checkQuietCallKeepalive(onMismatch?: (reason: string) => void): boolean {
  if (verdict !== undefined) return verdict;
  const proto = PerRequestHTTPServerTransport.prototype as unknown as PerRequestInternals;
  verdict = typeof proto.upgradeToSse === 'function' && proto.upgradeToSse.length === 0;
  if (!verdict) onMismatch?.('PerRequestHTTPServerTransport has no upgradeToSse()');
  return verdict;
}

/** Switches a quiet exchange to an event stream, when it is still waiting for its answer. */
function upgradeIfQuiet(transport: PerRequestInternals): void {
  const waiting =
    transport._sse === undefined &&
    transport._closed === false &&
    transport._requestId !== undefined &&
    transport._deferredResponse?.settled === false;
  if (waiting) transport.upgradeToSse?.();
}

/**
 * Keeps a long, silent 2026-07-28 request's connection alive through idle proxies. The
 * SDK answers such a request with one JSON body when nothing is sent before the result, so
 * a call that is quiet for longer than a proxy's idle timeout is cut. After `quietMs`
 * without an answer this switches the response to an event stream (`Content-Type:
 * text/event-stream`, which Streamable HTTP allows for any request whose client accepts
 * it), on which the SDK then sends `: keepalive` comments every `keepAliveMs` and finally
 * the answer as an SSE event. Only when the client's `Accept` allows `text/event-stream`.
 *
 * Uses the SDK transport's private `upgradeToSse()` (the same switch the SDK makes when a
 * request sends a notification before its result); when {@link checkQuietCallKeepalive}
 * finds it gone, requests are served as the SDK serves them (plain JSON, no keepalive).
 *
 * @param server - a fresh per-request view (returned as is, with `connect` wrapped).
 * @param quietMs - quiet period in ms before the switch; `0` disables.
 */
export function keepQuietCallsAlive(server: Server, quietMs: number): Server {
  if (quietMs <= 0 || !checkQuietCallKeepalive()) return server;
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    await connect(transport);
    if (transport instanceof PerRequestHTTPServerTransport) watch(transport, quietMs);
  };
  return server;
}

function watch(transport: PerRequestHTTPServerTransport, quietMs: number): void {
  let timer: NodeJS.Timeout | undefined;
  const handleMessage = transport.handleMessage.bind(transport);
  transport.handleMessage = (message, extra) => {
    if (extra?.request && streamable.has(extra.request)) {
      timer = setTimeout(() => upgradeIfQuiet(transport as unknown as PerRequestInternals), quietMs);
      timer.unref();
    }
    return handleMessage(message, extra);
  };
  const onclose = transport.onclose;
  transport.onclose = () => {
    clearTimeout(timer);
    onclose?.();
  };
}
