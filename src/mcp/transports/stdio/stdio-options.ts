// Checks StdioMcpServer's arguments and resolves its limits, so the server class stays a thin shell.
import { checkOptionValues, countRule, msRule, withMethods, type ValueRules } from '../../../option-values.js';
import { checkServerArguments } from '../../server/check-server-options.js';
import { resolvePing, type PingSettings } from '../ping.js';
import { DEFAULT_STDIO_MAX_MESSAGE_BYTES } from './outgoing-limit.js';

/** The `StdioMcpServerOptions` read here (that type lives with the server class). */
export interface StdioOptionsInput {
  stdin?: unknown;
  stdout?: unknown;
  maxMessageBytes?: number;
  stdinCloseGraceMs?: number;
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
}

const STDIO_RULES: ValueRules<StdioOptionsInput> = {
  stdin: withMethods('a readable stream', ['on', 'pause']),
  stdout: withMethods('a writable stream', ['write']),
  maxMessageBytes: countRule(1, 'bytes'),
  stdinCloseGraceMs: msRule(true),
};

/** The stdio limits after defaults were applied (internal). */
export interface ResolvedStdioOptions {
  maxMessageBytes: number;
  stdinCloseGraceMs: number | undefined;
  ping: PingSettings | undefined;
}

/**
 * Checks the server info and options and applies the defaults.
 * @param keys - every key `StdioMcpServerOptions` has.
 * @throws InvalidOptionsError when `serverInfo` is not `{ name, version, ... }` or holds an option, for an
 *   unknown option, or for an option value of the wrong type or range (`maxMessageBytes` not a positive
 *   integer, a negative `stdinCloseGraceMs`, a ping interval or timeout that is no valid number of ms).
 */
export function resolveStdioOptions(
  serverInfo: unknown,
  options: StdioOptionsInput,
  keys: ReadonlySet<string>,
): ResolvedStdioOptions {
  checkServerArguments('StdioMcpServer', serverInfo, options, keys);
  checkOptionValues('StdioMcpServer option', options, STDIO_RULES);
  return {
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_STDIO_MAX_MESSAGE_BYTES,
    stdinCloseGraceMs: options.stdinCloseGraceMs,
    ping: resolvePing('StdioMcpServer', options),
  };
}
