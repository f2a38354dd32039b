import { Server, type BaseContext } from '@modelcontextprotocol/server';

/**
 * Keeps the SDK's per-request handler context on stable hidden classes. The SDK's
 * `Server.buildContext` (2.4) makes `ctx.mcpReq` as `{ ...ctx.mcpReq, log, elicitInput,
 * requestSampling }`. On Node 20's V8 (11.3) a spread followed by a property the source does not
 * have builds a new hidden class (map) on every call: the clone's map is in no transition tree,
 * so each added key copies the map again (`Map::CopyWithField`), and every later read of
 * `ctx.mcpReq.*` (the SDK's, the pipeline's, the tool context's) then misses its inline cache on
 * a map it has never seen. Under callgrind that was two `DefineNamedOwnIC` misses per
 * `tools/call` and a megamorphic miss on each `mcpReq` read after it (docs/performance.md,
 * W2 third round).
 *
 * {@link withContextSlots} hands `buildContext` a copy of `ctx.mcpReq` that already has the keys
 * the SDK adds (value `undefined`, after the others, in the SDK's order). The SDK's spread then
 * overwrites existing fields, which keeps the map, and the context it returns has the same keys in
 * the same order with the same values as without the slots. The keys are learned once, by running
 * the SDK's own `buildContext` on an empty context (no per-call probing).
 *
 * Self-check: when the probe fails or adds nothing to `mcpReq`, or the keys it adds are not new ones
 * after the copy (an SDK that builds the context some other way), {@link withContextSlots} returns
 * `ctx` unchanged.
 */
let addedKeys: readonly string[] | undefined;

/** The keys the installed SDK's `Server.buildContext` appends to `mcpReq`, in order (empty: none, or unknown). */
export function contextSlotKeys(): readonly string[] {
  if (addedKeys) return addedKeys;
  addedKeys = [];
  try {
    const probe = new Server({ name: 'context-probe', version: '0' });
    const build = (probe as unknown as { buildContext?: (ctx: BaseContext) => unknown }).buildContext;
    const mcpReq = { id: 0, method: 'ping' };
    const built = build?.call(probe, { sessionId: undefined, mcpReq, http: undefined } as unknown as BaseContext) as
      { mcpReq?: object } | undefined;
    const keys = built?.mcpReq ? Object.keys(built.mcpReq) : [];
    // Only a context that keeps mcpReq's own keys first and appends new ones after them.
    if (keys[0] === 'id' && keys[1] === 'method') addedKeys = keys.slice(2);
  } catch {
    // An SDK whose buildContext needs more than an empty context: the SDK's own path.
  }
  return addedKeys;
}

/** `ctx` with a copy of `ctx.mcpReq` that has every slot `buildContext` adds; `ctx` itself when there are none. */
export function withContextSlots(ctx: BaseContext): BaseContext {
  const slots = contextSlotKeys();
  if (slots.length === 0) return ctx;
  // Copied key by key onto a fresh object (not spread): transitions from the empty object's map are cached.
  const mcpReq: Record<string, unknown> = Object.assign({}, ctx.mcpReq);
  for (const key of slots) if (!Object.hasOwn(mcpReq, key)) mcpReq[key] = undefined;
  return { ...ctx, mcpReq: mcpReq as unknown as BaseContext['mcpReq'] };
}
