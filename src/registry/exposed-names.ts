import type { ToolOverride, ToolOverrides } from '../tool-overrides.js';
import type { ListedTool } from './tool.js';

/**
 * The name mapping in force for a set of registered tools: a rename applies unless its new name
 * is another registered tool's own name or an earlier (sorted) rename claims it, so a state
 * pushed from elsewhere can never make two tools share a name.
 */
export class ExposedNames {
  /** Exposed (client-facing) name -> registered name, for renamed tools only. */
  readonly #byExposed = new Map<string, string>();
  /** Registered name -> exposed name, for renamed tools only. */
  readonly #exposedOf = new Map<string, string>();

  constructor(registered: ReadonlySet<string> | ReadonlyMap<string, unknown>, overrides: ToolOverrides) {
    for (const original of Object.keys(overrides).sort()) {
      const target = overrides[original]!.name;
      if (target === undefined || !registered.has(original)) continue;
      if (registered.has(target) || this.#byExposed.has(target)) continue;
      this.#byExposed.set(target, original);
      this.#exposedOf.set(original, target);
    }
  }

  /** The name clients see for the tool registered as `original`. */
  exposed(original: string): string {
    return this.#exposedOf.get(original) ?? original;
  }

  /** The registered name a client's `name` means, or `undefined` when it names a renamed tool's old name. */
  original(name: string): string | undefined {
    const renamed = this.#byExposed.get(name);
    if (renamed !== undefined) return renamed;
    return this.#exposedOf.has(name) ? undefined : name;
  }
}

/** `listed` with the override applied (a new frozen object sharing the schemas), or `listed` itself. */
export function applyOverride(listed: ListedTool, exposedName: string, override: ToolOverride | undefined): ListedTool {
  if (!override && exposedName === listed.name) return listed;
  const out: Record<string, unknown> = { ...listed, name: exposedName };
  if (override?.title !== undefined) out.title = override.title;
  if (override?.description !== undefined) out.description = override.description;
  return Object.freeze(out) as ListedTool;
}
