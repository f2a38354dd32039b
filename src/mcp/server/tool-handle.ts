import { Tool } from '../../registry/tool.js';
import { ToolPackage } from '../../registry/tool-package.js';
import type { ToolRegistry } from '../../registry/tool-registry.js';

/** Where a {@link ToolHandle}'s tools stand: all enabled, all disabled, some of each, or gone. */
export type ToolHandleState = 'enabled' | 'disabled' | 'mixed' | 'removed';

/**
 * What `server.registerTool(item)` returns: a handle on the tool (or on every tool of the
 * package) just registered. `enable()`, `disable()` and `remove()` act on the handle's tools
 * together, as one change: every connected client is told once (`notifications/tools/list_changed`
 * on the legacy era, its `subscriptions/listen` stream on 2026-07-28).
 *
 * After its tools are removed (by `remove()`, or `server.removeTool()`), a handle is **inert**:
 * `enable()` / `disable()` do nothing and do not throw, `remove()` returns false, `state` is
 * `'removed'`. A tool registered again under the same name gets a new handle; old handles never
 * touch it. A handle of a package whose tools were partly removed acts on the remaining ones.
 */
export interface ToolHandle {
  /** The tool's name for a lone tool; the package's `name` (possibly undefined) for a package. */
  readonly name: string | undefined;
  /** The names of the handle's tools, in registration order (fixed at registration). */
  readonly names: readonly string[];
  /** The handle's tools as registered. */
  readonly tools: readonly Tool<never>[];
  /** See {@link ToolHandleState}; computed on each read from the server's model. */
  readonly state: ToolHandleState;
  /** True when the handle still has tools and every one of them is enabled. */
  readonly enabled: boolean;
  /** True once none of the handle's tools is registered any more. */
  readonly removed: boolean;
  /** Enables every remaining tool of the handle (one change; none when all are enabled already). */
  enable(): void;
  /** Disables every remaining tool of the handle (one change; none when all are disabled already). */
  disable(): void;
  /** Removes every remaining tool of the handle (one change). False when nothing was left to remove. */
  remove(): boolean;
}

/** Builds the handle over `tools`, which `registry` has just registered. */
export function createToolHandle(
  registry: ToolRegistry,
  tools: readonly Tool<never>[],
  name: string | undefined,
): ToolHandle {
  const names = Object.freeze(tools.map((tool) => tool.name));
  /** The handle's tools still registered as these very objects. */
  const live = () => tools.filter((tool) => registry.get(tool.name) === tool);
  const setEnabled = (enabled: boolean) => {
    const mine = new Set(live().map((tool) => tool.name));
    if (mine.size === 0) return;
    const others = registry.disabledNames().filter((disabled) => !mine.has(disabled));
    registry.setDisabled(enabled ? others : [...others, ...mine]); // one change for the whole handle
  };
  return Object.freeze({
    name,
    names,
    tools: Object.freeze([...tools]),
    get state(): ToolHandleState {
      const remaining = live();
      if (remaining.length === 0) return 'removed';
      const disabled = remaining.filter((tool) => registry.isDisabled(tool.name)).length;
      return disabled === 0 ? 'enabled' : disabled === remaining.length ? 'disabled' : 'mixed';
    },
    get enabled() {
      return this.state === 'enabled';
    },
    get removed() {
      return live().length === 0;
    },
    enable: () => setEnabled(true),
    disable: () => setEnabled(false),
    remove: () => registry.remove(live()).length > 0,
  });
}

/**
 * `BaseMcpServer.removeTool`: removes a tool by name, or the given `Tool` / every tool of the given
 * `ToolPackage` still registered, in one registry change. False when nothing was registered to remove.
 */
export function removeRegistered(registry: ToolRegistry, item: string | Tool<never> | ToolPackage): boolean {
  const candidates =
    typeof item === 'string' ? [registry.get(item)] : item instanceof ToolPackage ? item.tools : [item];
  return registry.remove(candidates.filter((tool): tool is Tool<never> => tool instanceof Tool)).length > 0;
}
