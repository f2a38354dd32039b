import { nodeCrypto } from '../lazy-module.js';
import { UpstreamError } from '../errors.js';

/** What may name a namespace: 1-64 characters from `A-Z a-z 0-9 _ -` (a subset of the SEP-986 tool-name set, without `.`). */
const NAMESPACE = /^[A-Za-z0-9_-]{1,64}$/;
/** Characters SEP-986 (MCP 2025-11-25 "Tool names") allows in a tool name. */
const NOT_ALLOWED = /[^A-Za-z0-9_.-]/g;
/** The longest tool name SEP-986 allows. */
const MAX_NAME = 128;

/** What joins a namespace and an upstream's tool name: `github_create_issue`. */
export const NAMESPACE_SEPARATOR = '_';

/**
 * Checks a namespace (an upstream's or a mount's name as it prefixes tool names).
 * @throws UpstreamError (`INVALID_UPSTREAM`) naming the rule when it breaks it.
 */
export function assertNamespace(namespace: unknown, what: string): asserts namespace is string {
  if (typeof namespace !== 'string' || !NAMESPACE.test(namespace)) {
    throw new UpstreamError(
      'INVALID_UPSTREAM',
      String(namespace),
      `${what}: the namespace ${JSON.stringify(namespace)} must be 1-64 characters from A-Z, a-z, 0-9, "_" and "-".`,
    );
  }
}

/**
 * The name a source's tool gets in this server: `<namespace>_<name>`, valid under SEP-986 whatever
 * the source sent. Characters outside `A-Z a-z 0-9 _ - .` become `_`; a result longer than 128
 * characters keeps its first 119 and ends with `-` and 8 hex digits of the SHA-256 of the full name,
 * so two long names stay distinct and a name maps to the same result on every replica.
 */
export function namespacedName(namespace: string, name: string): string {
  const joined = `${namespace}${NAMESPACE_SEPARATOR}${name.replace(NOT_ALLOWED, '_')}`;
  if (joined.length <= MAX_NAME) return joined;
  const hash = nodeCrypto().createHash('sha256').update(`${namespace}\0${name}`).digest('hex').slice(0, 8);
  return `${joined.slice(0, MAX_NAME - 9)}-${hash}`;
}
