// The tool override model (shared by registry/ and state/, hence top level): shape, validation, identity.
import { ToolOverrideError } from './errors.js';

/** Tool names per MCP 2025-11-25 "Tool names" (SEP-986): 1-128 chars of A-Z a-z 0-9 _ - . */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
/** Longest override title, in characters. */
export const MAX_OVERRIDE_TITLE = 256;
/** Longest override description, in characters. */
export const MAX_OVERRIDE_DESCRIPTION = 16_384;

/**
 * What an operator changed about one tool (MetaMCP-style): the name clients see and call, and
 * the `title` / `description` of its `tools/list` entry. A field left out keeps the tool's own.
 */
export interface ToolOverride {
  /** The name clients list and call instead of the registered one (SEP-986 tool-name rules). */
  readonly name?: string;
  /** Replaces the tool's `title`. */
  readonly title?: string;
  /** Replaces the tool's `description`. */
  readonly description?: string;
}

/** Overrides by registered (original) tool name. */
export type ToolOverrides = Readonly<Record<string, ToolOverride>>;

/**
 * Checks and normalizes one override of the tool registered as `original`: a `name` equal to
 * `original` and empty `title` / `description` strings are dropped.
 * @returns the override, frozen, or `undefined` when nothing is left to override.
 * @throws ToolOverrideError (`reason: 'invalid'`) for a non-object, an unknown key, a non-string
 *   field, a name breaking the tool-name rules, or a field over its length limit.
 */
export function normalizeOverride(original: string, override: unknown): ToolOverride | undefined {
  if (override === undefined || override === null) return undefined;
  if (typeof override !== 'object' || Array.isArray(override))
    throw new ToolOverrideError(original, 'invalid', `The override of "${original}" must be an object.`);
  const out: { name?: string; title?: string; description?: string } = {};
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined || value === null) continue;
    if (key !== 'name' && key !== 'title' && key !== 'description')
      throw new ToolOverrideError(original, 'invalid', `Unknown override field "${key}" for "${original}".`);
    if (typeof value !== 'string')
      throw new ToolOverrideError(original, 'invalid', `The override "${key}" of "${original}" must be a string.`);
    out[key] = value;
  }
  if (out.name !== undefined && !TOOL_NAME_PATTERN.test(out.name))
    throw new ToolOverrideError(
      original,
      'invalid',
      `Invalid new name "${out.name}" for "${original}": use 1-128 characters from A-Z, a-z, 0-9, "_", "-" and ".".`,
    );
  if ((out.title?.length ?? 0) > MAX_OVERRIDE_TITLE || (out.description?.length ?? 0) > MAX_OVERRIDE_DESCRIPTION)
    throw new ToolOverrideError(
      original,
      'invalid',
      `The override of "${original}" is too long (title <= ${MAX_OVERRIDE_TITLE}, description <= ${MAX_OVERRIDE_DESCRIPTION} characters).`,
    );
  if (out.name === original) delete out.name;
  if (out.title === '') delete out.title;
  if (out.description === '') delete out.description;
  return Object.keys(out).length > 0 ? Object.freeze(out) : undefined;
}

/**
 * Normalizes a whole overrides table as stored (null prototype, sorted keys, invalid entries
 * dropped: a hand-edited state file must not stop a server).
 */
export function normalizeOverrides(overrides: Readonly<Record<string, unknown>> | undefined): ToolOverrides {
  const out = Object.create(null) as Record<string, ToolOverride>;
  for (const name of Object.keys(overrides ?? {}).sort()) {
    try {
      const override = normalizeOverride(name, overrides![name]);
      if (override) out[name] = override;
    } catch {
      // dropped: see the function comment
    }
  }
  return Object.freeze(out);
}

/** A stable string of an overrides table (for "did it change" checks). */
export function overridesKey(overrides: ToolOverrides | undefined): string {
  if (!overrides) return '';
  return JSON.stringify(
    Object.keys(overrides)
      .sort()
      .map((name) => [
        name,
        overrides[name]!.name ?? null,
        overrides[name]!.title ?? null,
        overrides[name]!.description ?? null,
      ]),
  );
}
