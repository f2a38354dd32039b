import type { Readable, Writable } from 'node:stream';
import { optionKeys } from '../../../known-options.js';
import { checkOptionValues, countRule, msRule, withMethods, type ValueRules } from '../../../option-values.js';
import { resolvePing, type PingSettings } from '../ping.js';
import { DEFAULT_STDIO_MAX_MESSAGE_BYTES } from './outgoing-limit.js';

/** Options of the stdio transport (`serveStdio`, and `StdioMcpServer` beside the base server options). */
export interface StdioServeOptions {
  /** Input stream (default `process.stdin`). */
  stdin?: Readable;
  /** Output stream, JSON-RPC only (default `process.stdout`). */
  stdout?: Writable;
  /**
   * Largest JSON-RPC line this server writes, in bytes (default 8 MiB, 8,388,608). The official
   * SDK clients drop the whole stdio connection on a line over 10 MiB, so a larger message is
   * not sent: a `tools/call` result becomes a tool error (`isError: true`) saying how big it was
   * and what to do, any other response a JSON-RPC -32603 error saying the same. Raise it only
   * for clients known to accept larger lines.
   */
  maxMessageBytes?: number;
  /**
   * When stdin ends, requests already read are still answered on stdout for up to this long
   * (ms; default 10,000), then the server stops; calls still running are then aborted (reason
   * `disconnected`). A client that writes its requests and closes stdin at once (a pipe, a
   * script) thus reads every answer. `subscriptions/listen` streams are not waited for. 0 stops
   * at once, as MCP's stdio shutdown allows.
   */
  stdinCloseGraceMs?: number;
  /**
   * Liveness pings (ms; default `0`, off): a handshake-era client is sent a JSON-RPC `ping` this
   * often, and one that does not answer within `pingTimeoutMs` counts as gone: the connection
   * closes and the server stops (session close reason `unresponsive`), as when stdin ends. For
   * servers whose parent may hang without closing the pipe. 2026-07-28 clients have no ping.
   */
  pingIntervalMs?: number;
  /** How long a liveness ping waits for its answer (ms). Default 10,000. */
  pingTimeoutMs?: number;
}

/** The keys of {@link StdioServeOptions}. */
export const STDIO_SERVE_OPTION_NAMES = [
  'stdin',
  'stdout',
  'maxMessageBytes',
  'stdinCloseGraceMs',
  'pingIntervalMs',
  'pingTimeoutMs',
] as const;

/** Every key of {@link StdioServeOptions}. */
export const STDIO_SERVE_OPTION_KEYS = optionKeys<StdioServeOptions>()(STDIO_SERVE_OPTION_NAMES);

const STDIO_RULES: ValueRules<StdioServeOptions> = {
  stdin: withMethods('a readable stream', ['on', 'pause']),
  stdout: withMethods('a writable stream', ['write']),
  maxMessageBytes: countRule(1, 'bytes'),
  stdinCloseGraceMs: msRule(true),
};

/** The stdio options with their defaults. */
export interface StdioSettings {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly maxMessageBytes: number;
  readonly stdinCloseGraceMs: number | undefined;
  readonly ping: PingSettings | undefined;
}

/**
 * Applies the defaults (`process.stdin` / `process.stdout`, 8 MiB lines, no pings).
 * @param owner - names the transport in ping option errors (`StdioMcpServer`, `serveStdio`).
 * @throws InvalidOptionsError for an option value of the wrong type or range (`maxMessageBytes` not a positive
 *   integer, a negative `stdinCloseGraceMs`, a ping interval or timeout that is no valid number of ms, streams
 *   without the stream methods).
 */
export function resolveStdioOptions(owner: string, options: StdioServeOptions): StdioSettings {
  checkOptionValues(`${owner} option`, options, STDIO_RULES);
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_STDIO_MAX_MESSAGE_BYTES;
  const { stdinCloseGraceMs } = options;
  return {
    stdin: options.stdin ?? process.stdin,
    stdout: options.stdout ?? process.stdout,
    maxMessageBytes,
    stdinCloseGraceMs,
    ping: resolvePing(owner, options),
  };
}
