import { normalizeOverrides, type ToolOverride, type ToolOverrides } from '../tool-overrides.js';

/**
 * One tool's last toggle as the cluster stores it: `[disabled, stamp, origin]` with `disabled`
 * 1 or 0, `stamp` a hybrid-logical time (ms since the epoch, above every stamp its writer had
 * seen; 0 for configured defaults) and `origin` the replica that made it.
 */
export type Intent = readonly [disabled: 0 | 1, stamp: number, origin: string];

/** Intents by tool name. */
export type Intents = Readonly<Record<string, Intent>>;

/**
 * One tool's last override change: `[override, stamp, origin]` with `override` the
 * `{ name?, title?, description? }` set, or `null` when it was cleared; stamp and origin as in {@link Intent}.
 */
export type OverrideRecord = readonly [override: ToolOverride | null, stamp: number, origin: string];

/** Override records by registered tool name. */
export type OverrideRecords = Readonly<Record<string, OverrideRecord>>;

type Stamped = readonly [unknown, number, string];

/** True when record `a` beats `b` (or `b` is missing): higher stamp, then higher origin. */
export function newer(a: Stamped, b: Stamped | undefined): boolean {
  return !b || a[1] > b[1] || (a[1] === b[1] && a[2] > b[2]);
}

/** Per name the newer record of `base` and `other` (commutative, idempotent: the Lua MERGE's rule). */
export function mergeIntents<T extends Stamped>(
  base: Readonly<Record<string, T>>,
  other: Readonly<Record<string, T>>,
): Readonly<Record<string, T>> {
  // Null prototype: a tool may be named "__proto__" (MCP names allow it).
  const out: Record<string, T> = Object.assign(Object.create(null) as Record<string, T>, base);
  for (const [name, intent] of Object.entries(other)) if (newer(intent, out[name])) out[name] = intent;
  return out;
}

/** The overrides in force that the records describe (cleared ones left out). */
export function overridesOf(records: OverrideRecords): ToolOverrides {
  const out: Record<string, ToolOverride> = {};
  for (const [name, [override]] of Object.entries(records)) if (override) out[name] = override;
  return normalizeOverrides(out);
}

/** The disabled names the intents describe, sorted. */
export function disabledOf(entries: Intents): string[] {
  return Object.keys(entries)
    .filter((name) => entries[name]![0] === 1)
    .sort();
}

/** An empty intents object that takes any tool name as an own key (null prototype). */
export function emptyIntents<T extends Stamped = Intent>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
