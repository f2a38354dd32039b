import type { SessionLimitPolicy } from '../mcp/transports/http/session-map.js';
import { MAX_TIMER_MS } from '../option-values.js';
import { flagNumber } from './flag-parsers.js';
import type { ServeHttpOptions } from './serve.js';

/** The HTTP session flags of `serve`, as commander parses them (strings). */
export interface SessionFlags {
  /** `--session-idle-timeout <seconds>`. */
  sessionIdleTimeout?: string;
  /** `--max-sessions <n>`. */
  maxSessions?: string;
  /** `--session-limit-policy <evict-lru|reject>`. */
  sessionLimitPolicy?: string;
}

/** A whole number of at least `min` given to `flag`. */
function parseCount(flag: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const count = flagNumber(value);
  if (!Number.isInteger(count) || count < min || count > max)
    throw new Error(
      `${flag} must be a whole number >= ${min}${max < Number.MAX_SAFE_INTEGER ? ` and <= ${max}` : ''}, got "${value}"`,
    );
  return count;
}

function parsePolicy(value: string): SessionLimitPolicy {
  if (value !== 'evict-lru' && value !== 'reject') {
    throw new Error(`--session-limit-policy must be evict-lru or reject, got "${value}"`);
  }
  return value;
}

/**
 * The HTTP session flags as `serveHttpFolder` options (an absent flag: the library default).
 * @throws Error naming the flag for a value that is not a whole number in range or a known policy.
 */
export function sessionOptions(
  opts: SessionFlags,
): Pick<ServeHttpOptions, 'sessionIdleTimeoutMs' | 'maxSessions' | 'sessionLimitPolicy'> {
  return {
    sessionIdleTimeoutMs:
      opts.sessionIdleTimeout === undefined
        ? undefined
        : parseCount('--session-idle-timeout', opts.sessionIdleTimeout, 0, Math.floor(MAX_TIMER_MS / 1000)) * 1000,
    maxSessions: opts.maxSessions === undefined ? undefined : parseCount('--max-sessions', opts.maxSessions, 1),
    sessionLimitPolicy: opts.sessionLimitPolicy === undefined ? undefined : parsePolicy(opts.sessionLimitPolicy),
  };
}
