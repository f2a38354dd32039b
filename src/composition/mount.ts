import type { Logger } from '../logger.js';
import { toRegistrable, type RegistrableTool } from '../registry/registrable.js';
import { Tool } from '../registry/tool.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { ToolRegistry, ToolRegistryView } from '../registry/tool-registry.js';
import type { ToolReturn } from '../registry/tool-result.js';
import { namespacedName } from './namespace.js';
import { ToolMirror, type MirroredEntry } from './tool-mirror.js';

/** What `mount()` takes: another server (anything with a `tools` registry view, e.g. a `BaseMcpServer`), or a tool package / tool as `registerTool()` takes it. */
export type MountSource = { readonly tools: ToolRegistryView } | RegistrableTool;

/** Options of `mount()`. */
export interface MountOptions {
  /** Prefix of the mounted tools' names (`<namespace>_<tool>`) and their package name. 1-64 characters from `A-Z a-z 0-9 _ -`. */
  namespace: string;
}

/** A mount, to list or end it. */
export interface MountHandle {
  readonly namespace: string;
  /** The mounted tools' names in this server now. */
  tools(): string[];
  /** Removes the mounted tools (one change) and stops following the source. Idempotent. */
  unmount(): void;
}

/** A tool of a mounted source under its namespaced name; runs the source's own tool with the caller's context. */
class MountedTool extends Tool<never> {
  constructor(
    private readonly original: Tool<never>,
    name: string,
    /** The registry it was mounted into: a server mounting itself (or a cycle) must not mount these again. */
    readonly home: ToolRegistry,
  ) {
    super({
      name,
      title: original.title,
      description: original.description,
      inputSchema: original.inputSchema,
      outputSchema: original.outputSchema,
      annotations: original.annotations,
      icons: original.icons,
      _meta: original._meta,
      timeoutMs: original.timeoutMs,
      canAccess: original.canAccess,
      taskSupport: original.taskSupport,
      taskAfterMs: original.taskAfterMs,
    });
  }

  execute(args: never, context: ToolContext): ToolReturn | Promise<ToolReturn> {
    return this.original.execute(args, context);
  }
}

const ids = new WeakMap<object, number>();
let nextId = 0;
const idOf = (tool: object) => ids.get(tool) ?? (ids.set(tool, ++nextId), nextId);

function isServerLike(source: MountSource): source is { readonly tools: ToolRegistryView } {
  const tools = (source as { tools?: unknown }).tools;
  return typeof tools === 'object' && tools !== null && typeof (tools as ToolRegistryView).onChange === 'function';
}

/**
 * Mirrors a source's tools into `registry` as the package `namespace`: a server's enabled tools
 * (following its registrations, removals and toggles, each as one change here), or a package's
 * tools once.
 * @throws InvalidToolError when a package source is not registrable (see `toRegistrable`).
 */
export function mountSource(
  registry: ToolRegistry,
  logger: Logger,
  source: MountSource,
  namespace: string,
): MountHandle {
  const mirror = new ToolMirror(registry, namespace, logger.child({ mount: namespace }));
  const entries = (tools: readonly Tool<never>[]): MirroredEntry[] =>
    tools.map((tool) => ({
      key: tool.name,
      signature: String(idOf(tool)),
      create: () => new MountedTool(tool, namespacedName(namespace, tool.name), registry),
    }));
  let unsubscribe = () => {};
  if (isServerLike(source)) {
    const { tools } = source;
    const own = (tool: Tool<never>) => tool instanceof MountedTool && tool.home === registry;
    const sync = () => mirror.sync(entries(tools.tools().filter((tool) => tools.isEnabled(tool.name) && !own(tool))));
    unsubscribe = tools.onChange(sync);
    sync();
  } else {
    const item = toRegistrable(source);
    mirror.sync(entries('tools' in item ? item.tools : [item]));
  }
  let mounted = true;
  return {
    namespace,
    tools: () => mirror.names,
    unmount() {
      if (!mounted) return;
      mounted = false;
      unsubscribe();
      mirror.clear();
    },
  };
}
