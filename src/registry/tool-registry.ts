import { DuplicateToolError, InvalidToolError } from '../errors.js';
import { compilesAtRegistration, type ListedTool, type Tool } from './tool.js';
import { ToolPackage } from './tool-package.js';
import { ToolOverrideError } from '../errors.js';
import { normalizeOverride, normalizeOverrides, type ToolOverride, type ToolOverrides } from '../tool-overrides.js';
import { applyOverride, ExposedNames } from './exposed-names.js';

export type { ToolOverride, ToolOverrides } from '../tool-overrides.js';

/** One row of {@link ToolRegistry.snapshot}: a tool, whether it is enabled, and its package (for settings UIs). */
export interface ToolState {
  readonly tool: Tool<never>;
  readonly enabled: boolean;
  /** `name` of the {@link ToolPackage} it was registered with; undefined for a lone tool or an unnamed package. */
  readonly packageName?: string;
  /** The name clients list and call it by: its registered name unless an override renames it. */
  readonly name: string;
  /** The operator's override of this tool (see `setToolOverride`), if any. */
  readonly override?: ToolOverride;
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
  /** Registered names whose override changed (name, title or description as clients see them). */
  readonly overridden?: readonly string[];
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
  /** The overrides table by registered name, sorted (for persisting it; names not registered included). */
  overrides(): ToolOverrides;
  /** The registered tool a client's `name` means (an override's new name; a renamed tool's old name means none). */
  getExposed(name: string): Tool<never> | undefined;
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
  readonly #stateListeners = new Set<() => void>();
  readonly #instructions: Array<{ text: string; tools: number }> = [];
  #enabledListCache?: readonly ListedTool[];
  #overrides: ToolOverrides = normalizeOverrides({});
  #names?: ExposedNames;
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
      if (compilesAtRegistration(tool)) tool.compiled(); // fail now, not at the first tools/list
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
    this.replaceState(names); // toggled in registration order, so events read like the inventory
  }

  /** Adds `name` to the disabled set. Never throws; no change event when nothing visible changed. */
  disable(name: string): void {
    if (this.#disabled.has(name)) return;
    this.#disabled.add(name);
    if (this.#tools.has(name)) this.#changed({ added: [], removed: [], toggled: [name] });
    this.#stateChanged();
  }

  /** Removes `name` from the disabled set. Never throws; no change event when nothing visible changed. */
  enable(name: string): void {
    if (!this.#disabled.delete(name)) return;
    if (this.#tools.has(name)) this.#changed({ added: [], removed: [], toggled: [name] });
    this.#stateChanged();
  }

  disabledNames(): string[] {
    return [...this.#disabled].sort();
  }

  overrides(): ToolOverrides {
    return this.#overrides;
  }

  getExposed(name: string): Tool<never> | undefined {
    const original = this.#exposedNames().original(name);
    return original === undefined ? undefined : this.#tools.get(original)?.tool;
  }

  /**
   * Sets (or with `undefined` clears) the override of the tool registered as `name` (registered
   * or not: like the disabled set it is a preference). One change event when clients see a difference.
   * @throws ToolOverrideError `invalid` (see `normalizeOverride`), or `collision` when the new name is
   *   another registered tool's name or another override's new name.
   */
  setOverride(name: string, override: ToolOverride | undefined): void {
    const normalized = normalizeOverride(name, override);
    const target = normalized?.name;
    if (target !== undefined) {
      const other = Object.keys(this.#overrides).find((key) => key !== name && this.#overrides[key]!.name === target);
      if (this.#tools.has(target) || other !== undefined)
        throw new ToolOverrideError(
          name,
          'collision',
          other !== undefined
            ? `Cannot rename "${name}" to "${target}": the override of "${other}" already uses that name.`
            : `Cannot rename "${name}" to "${target}": a tool named "${target}" is registered.`,
        );
    }
    const next: Record<string, ToolOverride> = { ...this.#overrides };
    if (normalized) next[name] = normalized;
    else delete next[name];
    this.replaceState(this.#disabled, next);
  }

  /**
   * Replaces the disabled set and (when given) the overrides table in one change: clients are
   * told once. Used to apply a stored or pushed tool state; overrides are normalized, and a
   * rename that would clash is kept but not applied (see `ExposedNames`).
   */
  replaceState(disabled: Iterable<string>, overrides?: Readonly<Record<string, unknown>>): void {
    const next = new Set(disabled);
    const toggled = [...this.#tools.keys()].filter((name) => this.#disabled.has(name) !== next.has(name));
    this.#disabled.clear();
    for (const name of next) this.#disabled.add(name);
    let overridden: string[] = [];
    if (overrides) {
      const table = normalizeOverrides(overrides);
      const before = this.#overrides;
      const same = (a?: ToolOverride, b?: ToolOverride) =>
        a?.name === b?.name && a?.title === b?.title && a?.description === b?.description;
      overridden = [...this.#tools.keys()].filter((name) => !same(before[name], table[name]));
      this.#overrides = table;
      this.#names = undefined;
    }
    if (toggled.length > 0 || overridden.length > 0) this.#changed({ added: [], removed: [], toggled, overridden });
    this.#stateChanged();
  }

  snapshot(): readonly ToolState[] {
    return Object.freeze(
      [...this.#tools.values()].map(({ tool, packageName }) =>
        Object.freeze({
          tool,
          enabled: !this.#disabled.has(tool.name),
          packageName,
          name: this.#exposedNames().exposed(tool.name),
          ...(this.#overrides[tool.name] && { override: this.#overrides[tool.name] }),
        }),
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
        .map((tool) =>
          applyOverride(tool.compiled().listed, this.#exposedNames().exposed(tool.name), this.#overrides[tool.name]),
        ),
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

  /**
   * Calls `listener` after every change of the disabled set or the overrides, also for names not
   * registered (which make no change event): the server saves its tool state from it.
   * @returns an unsubscribe function.
   */
  onStateChange(listener: () => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  #stateChanged(): void {
    for (const listener of this.#stateListeners) listener();
  }

  #exposedNames(): ExposedNames {
    this.#names ??= new ExposedNames(this.#tools, this.#overrides);
    return this.#names;
  }

  #changed(change: Omit<RegistryChange, 'toolsChanged'>): void {
    this.#enabledListCache = undefined;
    this.#names = undefined; // registrations change which renames apply
    const shown = (tool: Tool<never>) => !this.#disabled.has(tool.name);
    const visible =
      change.toggled.length > 0 ||
      change.added.some(shown) ||
      change.removed.some(shown) ||
      (change.overridden ?? []).some((name) => !this.#disabled.has(name));
    const event: RegistryChange = { ...change, toolsChanged: visible };
    for (const listener of [...this.#listeners]) listener(event);
  }
}
