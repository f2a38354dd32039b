import { markSerializedOnce } from '../../src/mcp/wire/serialized-once.js';

/**
 * A marked one-tool list whose `name` getter counts its reads: a writer that splices the cached JSON
 * reads it once, one that serializes the list per response reads it every time.
 */
export function countedTools(): { tools: readonly unknown[]; reads: () => number } {
  let reads = 0;
  const tools = Object.freeze([
    Object.freeze({
      get name() {
        reads += 1;
        return 'counted';
      },
    }),
  ]);
  markSerializedOnce(tools);
  return { tools, reads: () => reads };
}
