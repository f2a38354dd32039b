import { DuplicateToolError, InvalidToolError } from '../errors.js';
import type { ListedTool, Tool } from './tool.js';
import { ToolPackage } from './tool-package.js';

/** One row of {@link ToolRegistry.snapshot}: a tool, whether it is enabled, and its package (for settings UIs). */
export interface ToolState {
  readonly tool: Tool<never>;
  readonly enabled: boolean;
  /** `name` of the {@link ToolPackage} it was registered with; undefined for a lone tool or an unnamed package. */
  readonly packageName?: string;
}

/** What changed in the registry; `toolsChanged` is true when the visible tool list changed. */
export interface RegistryChange {
  readonly toolsChanged: boolean;
  /** Tools added by this change (registration). */
  readonly added: readonly Tool<never>[];
  /** Tools removed by this change. */
  readonly removed: readonly Tool<never>[];
  /** Names whose enabled state flipped. */
  readonly toggled: readonly string[];
}

/**
 * The read side of the tool model, as `server.tools` exposes it: every method only reads.
 * Changes go through the server (`registerTool`, `removeTool`, `setDisabledTools`, ...).
 */
export interface ToolRegistryView {
  /** The tool registered under this name, enabled or not. */
  get(name: string): Tool<never> | undefined;
  /** True when `name` is registered and not disabled. */
  isEnabled(name: string): boolean;
  /** True when `name` is in the disabled set (registered or not). */
  isDisabled(name: string): boolean;
  /** The disabled set, sorted (for persisting it). */
  disabledNames(): string[];
  /** Every registered tool with its enabled state and package name, in registration order (frozen rows). */
  snapshot(): readonly ToolState[];
  /** Every registered tool in registration order. */
  tools(): readonly Tool<never>[];
  /** Number of registered tools. */
  readonly size: number;
  /** Calls `listener` after each change; returns an unsubscribe function. */
  onChange(listener: (change: RegistryChange) => void): () => void;
}

interface Entry {
  readonly tool: Tool<never>;
  readonly packageName?: string;
  /** The package's instructions entry this tool keeps alive (removed with its package's last tool). */
  readonly instructions?: { text: string; tools: number };
}

/**
 * The model: every registered tool (in registration order) plus the set of disabled
 * names. It knows no servers; views read it on every request and listen to
 * {@link ToolRegistry.onChange} to tell their clients.
 *
 * Disabled names need not be registered: a name disabled first and registered later
 * starts disabled, and removing a tool leaves its name in the disabled set (it is a
 * preference, not an inventory). Listeners fire once per call that changed something.
 */
export class ToolRegistry implements ToolRegistryView {
  readonly #tools = new Map<string, Entry>();
  readonly #disabled = new Set<string>();
  readonly #listeners = new Set<(change: RegistryChange) => void>();
  readonly #instructions: Array<{ text: string; tools: number }> = [];
  #enabledListCache?: readonly ListedTool[];
  #accessRules = 0;

  /**
   * Adds a tool or every tool of a package, all-or-nothing.
   * @returns the tools added, in order.
   * @throws DuplicateToolError when a name is already registered (or repeated inside the package).
   * @throws InvalidToolError when a tool's schemas cannot be compiled.
   */
  register(item: Tool<never> | ToolPackage): readonly Tool<never>[] {
    const tools = item instanceof ToolPackage ? item.tools : [item];
    const seen = new Set<string>();
    for (const tool of tools) {
      if (!tool || typeof tool.name !== 'string' || typeof tool.execute !== 'function') {
        throw new InvalidToolError('registerTool() expects a Tool (with name and execute) or a ToolPackage.');
      }
      if (seen.has(tool.name)) throw new DuplicateToolError(tool.name, { name: (item as ToolPackage).name });
      if (this.#tools.has(tool.name)) throw new DuplicateToolError(tool.name);
      seen.add(tool.name);
      tool.compiled(); // fail now, not at the first tools/list
    }
    const packageName = item instanceof ToolPackage ? item.name : undefined;
    const instructions =
      item instanceof ToolPackage && item.instructions && tools.length > 0
        ? { text: item.instructions, tools: tools.length }
        : undefined;
    if (instructions) this.#instructions.push(instructions);
    for (const tool of tools) {
      this.#tools.set(tool.name, { tool, packageName, instructions });
      if (tool.canAccess) this.#accessRules += 1;
    }
    if (tools.length > 0) this.#changed({ added: tools, removed: [], toggled: [] });
    return tools;
  }

  /**
   * Removes these exact tool objects (a tool registered again under the same name by someone
   * else is left alone), in one change. A package's instructions go with its last tool.
   * @returns the tools removed (empty when none of them was registered).
   */
  remove(tools: Iterable<Tool<never>>): readonly Tool<never>[] {
    const removed: Tool<never>[] = [];
    for (const tool of tools) {
      if (this.#tools.get(tool.name)?.tool !== tool) continue;
      this.#forget(tool);
      removed.push(tool);
    }
    if (removed.length > 0) this.#changed({ added: [], removed, toggled: [] });
    return removed;
  }

  /**
   * Removes `removed` (exact objects, as {@link remove}) and adds `added` under `packageName`, as ONE
   * change: a source whose inventory changed (an upstream server's `list_changed`, a mounted server's
   * registration) tells each client once. Added tools whose name is still taken are skipped and returned.
   * @returns the tools skipped because their name is registered (by another tool than one removed).
   * @throws InvalidToolError when an added tool's schemas cannot be compiled (nothing changes then).
   */
  replace(removed: Iterable<Tool<never>>, added: readonly Tool<never>[], packageName?: string): readonly Tool<never>[] {
    for (const tool of added) tool.compiled();
    const gone = [...removed].filter((tool) => this.#tools.get(tool.name)?.tool === tool);
    const leaving = new Set(gone.map((tool) => tool.name));
    const skipped: Tool<never>[] = [];
    const kept: Tool<never>[] = [];
    const seen = new Set<string>();
    for (const tool of added) {
      const taken = seen.has(tool.name) || (this.#tools.has(tool.name) && !leaving.has(tool.name));
      (taken ? skipped : kept).push(tool);
      seen.add(tool.name);
    }
    for (const tool of gone) this.#forget(tool);
    for (const tool of kept) {
      this.#tools.set(tool.name, { tool, packageName });
      if (tool.canAccess) this.#accessRules += 1;
    }
    if (gone.length > 0 || kept.length > 0) this.#changed({ added: kept, removed: gone, toggled: [] });
    return skipped;
  }

  /** Drops a registered tool's entry, its access-rule count and (with its package's last tool) its instructions. */
  #forget(tool: Tool<never>): void {
    const entry = this.#tools.get(tool.name);
    this.#tools.delete(tool.name);
    if (tool.canAccess) this.#accessRules -= 1;
    if (entry?.instructions && --entry.instructions.tools === 0) {
      this.#instructions.splice(this.#instructions.indexOf(entry.instructions), 1);
    }
  }

  /** True when some registered tool has a `canAccess` rule (listing must then filter per caller). */
  hasAccessRules(): boolean {
    return this.#accessRules > 0;
  }

  get(name: string): Tool<never> | undefined {
    return this.#tools.get(name)?.tool;
  }

  get size(): number {
    return this.#tools.size;
  }

  isEnabled(name: string): boolean {
    return this.#tools.has(name) && !this.#disabled.has(name);
  }

  isDisabled(name: string): boolean {
    return this.#disabled.has(name);
  }

  /** Replaces the whole disabled set; `[]` enables everything. Unknown names are kept for later registrations. */
  setDisabled(names: Iterable<string>): void {
    const next = new Set(names);
    // In registration order, so events and logs read the same way as the inventory.
    const toggled = [...this.#tools.keys()].filter((name) => this.#disabled.has(name) !== next.has(name));
    this.#disabled.clear();
    for (const name of next) this.#disabled.add(name);
    if (toggled.length > 0) this.#changed({ added: [], removed: [], toggled });
  }

  /** Adds `name` to the disabled set. Never throws; no change event when nothing visible changed. */
  disable(name: string): void {
    if (this.#disabled.has(name)) return;
    this.#disabled.add(name);
    if (this.#tools.has(name)) this.#changed({ added: [], removed: [], toggled: [name] });
  }

  /** Removes `name` from the disabled set. Never throws; no change event when nothing visible changed. */
  enable(name: string): void {
    if (!this.#disabled.delete(name)) return;
    if (this.#tools.has(name)) this.#changed({ added: [], removed: [], toggled: [name] });
  }

  disabledNames(): string[] {
    return [...this.#disabled].sort();
  }

  snapshot(): readonly ToolState[] {
    return Object.freeze(
      [...this.#tools.values()].map(({ tool, packageName }) =>
        Object.freeze({ tool, enabled: !this.#disabled.has(tool.name), packageName }),
      ),
    );
  }

  tools(): readonly Tool<never>[] {
    return [...this.#tools.values()].map((entry) => entry.tool);
  }

  /** `tools/list` entries of the enabled tools; cached until the next change, so listing is O(1). */
  listEnabled(): readonly ListedTool[] {
    this.#enabledListCache ??= Object.freeze(
      this.tools()
        .filter((tool) => !this.#disabled.has(tool.name))
        .map((tool) => tool.compiled().listed),
    );
    return this.#enabledListCache;
  }

  /** Instructions texts of the registered packages, in registration order. */
  instructions(): readonly string[] {
    return this.#instructions.map((entry) => entry.text);
  }

  onChange(listener: (change: RegistryChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(change: Omit<RegistryChange, 'toolsChanged'>): void {
    this.#enabledListCache = undefined;
    const shown = (tool: Tool<never>) => !this.#disabled.has(tool.name);
    const visible = change.toggled.length > 0 || change.added.some(shown) || change.removed.some(shown);
    const event: RegistryChange = { ...change, toolsChanged: visible };
    for (const listener of [...this.#listeners]) listener(event);
  }
}
