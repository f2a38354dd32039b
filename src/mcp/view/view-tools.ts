import type { AuthInfo } from '@modelcontextprotocol/server';
import type { ListedTool, Tool } from '../../registry/tool.js';
import type { ToolRegistry } from '../../registry/tool-registry.js';
import { markSerializedOnce, responseArray } from '../wire/serialized-once.js';

/**
 * The tools one view offers: the shared registry plus this view's own per-session
 * tool instances, filtered by the disabled set and by each tool's `canAccess(auth)`.
 * Without session tools or access rules, listing returns the registry's cached array as a fresh
 * plain copy sharing its cached JSON (`responseArray`, ~1 us at 1,000 tools): no per-tool work.
 */
export class ViewTools {
  readonly #own: ReadonlyMap<string, Tool<never>>;

  constructor(
    private readonly registry: ToolRegistry,
    sessionTools: readonly Tool<never>[] = [],
  ) {
    this.#own = new Map(sessionTools.map((tool) => [tool.name, tool]));
  }

  /** The per-session instances (disposed when the view closes). */
  get sessionTools(): Iterable<Tool<never>> {
    return this.#own.values();
  }

  /** `tools/list` entries visible to a caller with `auth`. */
  list(auth: AuthInfo | undefined): readonly ListedTool[] {
    const shared = this.registry.listEnabled();
    if (this.#own.size === 0 && !this.registry.hasAccessRules()) {
      markSerializedOnce(shared); // the same array for every caller until the next change
      return responseArray(shared);
    }
    const visible = shared.filter((listed) => this.#allowed(this.registry.getExposed(listed.name), auth));
    for (const tool of this.#own.values()) {
      if (!this.registry.isDisabled(tool.name) && this.#allowed(tool, auth)) visible.push(tool.compiled().listed);
    }
    return visible;
  }

  /**
   * The tool a `tools/call` names (by the name clients see: an override's new name, never a
   * renamed tool's old one), with why it cannot run if it cannot.
   */
  resolve(name: string, auth: AuthInfo | undefined): { tool?: Tool<never>; problem?: 'unknown' | 'disabled' } {
    const tool = this.#own.get(name) ?? this.registry.getExposed(name);
    if (!tool || !this.#allowed(tool, auth)) return { problem: 'unknown' };
    if (this.registry.isDisabled(tool.name)) return { problem: 'disabled' };
    return { tool };
  }

  #allowed(tool: Tool<never> | undefined, auth: AuthInfo | undefined): boolean {
    if (!tool?.canAccess) return tool !== undefined;
    try {
      return tool.canAccess(auth) === true;
    } catch {
      return false; // a failing access rule denies, never crashes the listing
    }
  }
}
