import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import { checkValue, msRule } from '../../option-values.js';

/** When to ping a client and how long it may take to answer (both ms). */
export interface PingSettings {
  /** Interval between pings (ms); 0 turns pinging off. */
  intervalMs: number;
  /** How long one ping may wait for its answer before the client counts as gone (ms). */
  timeoutMs: number;
}

/** Default ping answer wait (ms): long enough for a busy client on a slow link. */
export const DEFAULT_PING_TIMEOUT_MS = 10_000;

/**
 * Sends JSON-RPC `ping` (MCP "Ping", 2025-11-25 basic/utilities/ping) to a handshake-era
 * client every `intervalMs` while `canPing()` says it can hear one (a legacy HTTP session
 * only has a channel for server requests while its GET stream is open), one ping at a
 * time. A ping unanswered within `timeoutMs`, or one the connection could not carry, calls
 * `onUnresponsive` once and stops. Any answer, an error response (`ProtocolError`) included,
 * shows that the client is there. The 2026-07-28 revision has no ping: never start this on a modern view.
 * @returns a function that stops pinging (idempotent).
 */
export function startPinging(
  view: Server,
  settings: PingSettings,
  canPing: () => boolean,
  onUnresponsive: (reason: string) => void,
): () => void {
  if (settings.intervalMs <= 0) return () => {};
  let stopped = false;
  let inFlight = false;
  const timer = setInterval(() => {
    if (stopped || inFlight || !canPing()) return;
    inFlight = true;
    view.request({ method: 'ping' }, { timeout: settings.timeoutMs }).then(
      () => (inFlight = false),
      (error: unknown) => {
        inFlight = false;
        if (stopped || error instanceof ProtocolError) return;
        stop();
        onUnresponsive(`no answer to ping within ${settings.timeoutMs} ms (${errorText(error)})`);
      },
    );
  }, settings.intervalMs);
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The ping settings of a server's options, or undefined when pinging is off.
 * @throws InvalidOptionsError on a negative, non-numeric or too large interval or timeout.
 */
export function resolvePing(
  owner: string,
  options: { pingIntervalMs?: number; pingTimeoutMs?: number },
): PingSettings | undefined {
  const intervalMs = checkValue(`${owner} option`, 'pingIntervalMs', options.pingIntervalMs ?? 0, msRule(true));
  const timeoutMs = checkValue(
    `${owner} option`,
    'pingTimeoutMs',
    options.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS,
    msRule(false),
  );
  return intervalMs > 0 ? { intervalMs, timeoutMs } : undefined;
}
