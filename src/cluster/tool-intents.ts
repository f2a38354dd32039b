/**
 * One tool's last toggle as the cluster stores it: `[disabled, stamp, origin]` with `disabled`
 * 1 or 0, `stamp` a hybrid-logical time (ms since the epoch, above every stamp its writer had
 * seen; 0 for configured defaults) and `origin` the replica that made it.
 */
export type Intent = readonly [disabled: 0 | 1, stamp: number, origin: string];

/** Intents by tool name. */
export type Intents = Readonly<Record<string, Intent>>;

/** True when intent `a` beats `b` (or `b` is missing): higher stamp, then higher origin. */
export function newer(a: Intent, b: Intent | undefined): boolean {
  return !b || a[1] > b[1] || (a[1] === b[1] && a[2] > b[2]);
}

/** Per name the newer intent of `base` and `other` (commutative, idempotent: the Lua MERGE's rule). */
export function mergeIntents(base: Intents, other: Intents): Intents {
  // Null prototype: a tool may be named "__proto__" (MCP names allow it).
  const out: Record<string, Intent> = Object.assign(Object.create(null) as Record<string, Intent>, base);
  for (const [name, intent] of Object.entries(other)) if (newer(intent, out[name])) out[name] = intent;
  return out;
}

/** The disabled names the intents describe, sorted. */
export function disabledOf(entries: Intents): string[] {
  return Object.keys(entries)
    .filter((name) => entries[name]![0] === 1)
    .sort();
}

/** An empty intents object that takes any tool name as an own key (null prototype). */
export function emptyIntents(): Record<string, Intent> {
  return Object.create(null) as Record<string, Intent>;
}
