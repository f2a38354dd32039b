import type { SessionLimitPolicy } from '../mcp/transports/http/session-map.js';
import { flagNumber, MAX_TIMER_SECONDS } from './flag-parsers.js';
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

/** A whole number of at least `min` (and at most `max`, when given) given to `flag`. */
function parseCount(flag: string, value: string, min: number, max?: number): number {
  const count = flagNumber(value);
  if (!Number.isSafeInteger(count) || count < min || (max !== undefined && count > max))
    throw new Error(
      `${flag} must be a whole number >= ${min}${max === undefined ? '' : ` and <= ${max}`}, got "${value}"`,
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
        : parseCount('--session-idle-timeout', opts.sessionIdleTimeout, 0, MAX_TIMER_SECONDS) * 1000,
    maxSessions: opts.maxSessions === undefined ? undefined : parseCount('--max-sessions', opts.maxSessions, 1),
    sessionLimitPolicy: opts.sessionLimitPolicy === undefined ? undefined : parsePolicy(opts.sessionLimitPolicy),
  };
}
