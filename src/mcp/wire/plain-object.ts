/**
 * Whether a decoded JSON value is an object (not `null`, not an array): the shape of a JSON-RPC
 * message, its `params`, `_meta` and `result`. The one copy shared by the wire checks, the
 * transports, the SDK shortcuts and the input rounds.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
