import { DuplicateToolError, InvalidToolError } from '../errors.js';
import type { ListedTool, Tool } from './tool.js';
import { ToolPackage } from './tool-package.js';

/** One row of {@link ToolRegistry.snapshot}: a tool and whether it is enabled (for settings UIs). */
export interface ToolState {
  readonly tool: Tool<never>;
  readonly enabled: boolean;
  /** Name of the `ToolPackage` it was registered with, when that package has a name. */
  readonly package?: string;
}

/** What changed in the registry; `toolsChanged` is true when the visible tool list changed. */
export interface RegistryChange {
  readonly toolsChanged: boolean;
  /** Tools added by this change (registration). */
  readonly added: readonly Tool<never>[];
  /** Names whose enabled state flipped. */
  readonly toggled: readonly string[];
}

/**
 * The model: every registered tool (in registration order) plus the set of disabled
 * names. It knows no servers; views read it on every request and listen to
 * {@link ToolRegistry.onChange} to tell their clients.
 *
 * Disabled names need not be registered: a name disabled first and registered later
 * starts disabled. Listeners fire once per call that changed what clients see.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool<never>>();
  readonly #disabled = new Set<string>();
  readonly #listeners = new Set<(change: RegistryChange) => void>();
  readonly #instructions: string[] = [];
  readonly #packages = new Map<string, string>();
  #enabledListCache?: readonly ListedTool[];
  #accessRules = 0;

  /**
   * Adds a tool or every tool of a package, all-or-nothing.
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
      if (this.#tools.has(tool.name) || seen.has(tool.name)) throw new DuplicateToolError(tool.name);
      seen.add(tool.name);
      tool.compiled(); // fail now, not at the first tools/list
    }
    for (const tool of tools) {
      this.#tools.set(tool.name, tool);
      if (tool.canAccess) this.#accessRules += 1;
      if (item instanceof ToolPackage && item.name) this.#packages.set(tool.name, item.name);
    }
    if (item instanceof ToolPackage && item.instructions) this.#instructions.push(item.instructions);
    if (tools.length > 0) this.#changed({ added: tools, toggled: [] });
    return tools;
  }

  /** True when some registered tool has a `canAccess` rule (listing must then filter per caller). */
  hasAccessRules(): boolean {
    return this.#accessRules > 0;
  }

  /** The tool with this name, enabled or not. */
  get(name: string): Tool<never> | undefined {
    return this.#tools.get(name);
  }

  /** True when `name` is registered and not disabled. */
  isEnabled(name: string): boolean {
    return this.#tools.has(name) && !this.#disabled.has(name);
  }

  /** True when `name` is in the disabled set (registered or not). */
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
    if (toggled.length > 0) this.#changed({ added: [], toggled });
  }

  /** Adds `name` to the disabled set. Never throws; no change event when nothing visible changed. */
  disable(name: string): void {
    if (this.#disabled.has(name)) return;
    this.#disabled.add(name);
    if (this.#tools.has(name)) this.#changed({ added: [], toggled: [name] });
  }

  /** Removes `name` from the disabled set. Never throws; no change event when nothing visible changed. */
  enable(name: string): void {
    if (!this.#disabled.delete(name)) return;
    if (this.#tools.has(name)) this.#changed({ added: [], toggled: [name] });
  }

  /** The disabled set, sorted (for persisting it). */
  disabledNames(): string[] {
    return [...this.#disabled].sort();
  }

  /** Every registered tool with its enabled state, in registration order (read-only). */
  snapshot(): readonly ToolState[] {
    return Object.freeze(
      [...this.#tools.values()].map((tool) => {
        const pkg = this.#packages.get(tool.name);
        return Object.freeze({
          tool,
          enabled: !this.#disabled.has(tool.name),
          ...(pkg !== undefined && { package: pkg }),
        });
      }),
    );
  }

  /** Every registered tool in registration order. */
  tools(): readonly Tool<never>[] {
    return [...this.#tools.values()];
  }

  /** `tools/list` entries of the enabled tools; cached until the next change, so listing is O(1). */
  listEnabled(): readonly ListedTool[] {
    this.#enabledListCache ??= Object.freeze(
      [...this.#tools.values()].filter((tool) => !this.#disabled.has(tool.name)).map((tool) => tool.compiled().listed),
    );
    return this.#enabledListCache;
  }

  /** Instructions texts of the registered packages, in registration order. */
  instructions(): readonly string[] {
    return this.#instructions;
  }

  /** Calls `listener` after each change; returns an unsubscribe function. */
  onChange(listener: (change: RegistryChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(change: Omit<RegistryChange, 'toolsChanged'>): void {
    this.#enabledListCache = undefined;
    const visible = change.toggled.length > 0 || change.added.some((tool) => !this.#disabled.has(tool.name));
    const event: RegistryChange = { ...change, toolsChanged: visible };
    for (const listener of [...this.#listeners]) listener(event);
  }
}
