// Flag parsers shared by the commands that serve (`serve`, `gateway`).
import path from 'node:path';
import { tildeExpansion } from '../documents/path-policy.js';
import { nodeFs } from '../lazy-module.js';
import { MAX_TIMER_MS } from '../option-values.js';

/**
 * The folder as an absolute path. A leading `~` is expanded only by a shell: a desktop client that
 * starts this command passes it as is, so one that names no existing folder gets the full path to use.
 */
export function resolveFolder(folder: string): string {
  const home = tildeExpansion(folder);
  if (home !== undefined && !nodeFs().existsSync(folder)) {
    throw new Error(
      `the folder "${folder}" starts with "~", which only a shell expands (a desktop MCP client passes it as is): give the full path, e.g. ${home}`,
    );
  }
  return path.resolve(folder);
}

/**
 * The number a flag's value writes in plain decimal (`30`, `1.5`), or NaN for any other text, so that each flag's own
 * range check refuses it with its message. `Number()` alone took `''` and `' '` as 0 (`--port ''` picked a random port,
 * `--cache-size ''` turned the cache off) and `0x10`, `1e2`, `+5` or `' 2'` as numbers.
 */
export function flagNumber(value: string): number {
  return /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
}

/** The longest timer a flag in seconds may set (`--ping-interval`, `--session-idle-timeout`): 2^31-1 ms, in whole s. */
export const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/**
 * `--ext`: the comma-separated extensions, or undefined when the flag is absent (every supported type).
 * @throws Error when the flag is given but names none (`--ext ''`, `--ext ,`), which would otherwise serve every type.
 */
export function parseExtensions(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const extensions = value
    .split(',')
    .map((ext) => ext.trim())
    .filter(Boolean);
  if (extensions.length === 0) throw new Error(`--ext must name at least one extension (e.g. md,txt), got "${value}"`);
  return extensions;
}

/** `--port`: an integer 0-65535. @throws Error naming the flag otherwise. */
export function parsePort(value: string): number {
  const port = flagNumber(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, got "${value}"`);
  return port;
}

/** `--redis-unavailable`: `fail` or `local`, only with `--redis`. @throws Error naming the flag otherwise. */
export function parseRedisUnavailable(opts: {
  redis?: string;
  redisUnavailable?: string;
}): 'fail' | 'local' | undefined {
  const value = opts.redisUnavailable;
  if (value === undefined) return undefined;
  if (value !== 'fail' && value !== 'local') {
    throw new Error(`--redis-unavailable must be fail or local, got "${value}"`);
  }
  if (!opts.redis) throw new Error('--redis-unavailable needs --redis <url>');
  return value;
}
