import type { AuthInfo, Server } from '@modelcontextprotocol/server';
import type { Logger } from '../../logger.js';
import { toRegistrable, type RegistrableTool } from '../../registry/registrable.js';
import type { Tool } from '../../registry/tool.js';
import { ToolPackage } from '../../registry/tool-package.js';
import type { ToolRegistry } from '../../registry/tool-registry.js';

/** The session a per-session tool set is made for. */
export interface SessionToolsContext {
  era: 'legacy' | 'modern';
  authInfo?: AuthInfo;
}

/**
 * One session's tools plus a cleanup hook (the llm-chat-mcp `SessionToolSet` shape). `tools` may
 * hold toolkit or llm-chat tools and packages; `dispose()` runs exactly once when the session ends
 * (after the tools' own `dispose()`); what it throws or rejects with is logged, never rethrown.
 */
export interface SessionToolSet {
  tools: readonly RegistrableTool[];
  dispose(): void | Promise<void>;
}

/** Makes a {@link SessionToolSet} per session (the llm-chat-mcp `SessionToolFactory` shape). */
export interface SessionToolSetFactory {
  create(): SessionToolSet;
}

/**
 * Makes one session's own tool instances (see `BaseMcpServerOptions.sessionTools`): a function
 * returning tools / packages (toolkit or llm-chat ones), or an object whose `create()` returns a
 * {@link SessionToolSet} (the form llm-chat-mcp's `sessionToolFactory` takes).
 */
export type SessionToolsFactory =
  ((session: SessionToolsContext) => readonly RegistrableTool[] | RegistrableTool) | SessionToolSetFactory;

/** The tools one view got from the factory and how to release them. */
export interface SessionTools {
  readonly tools: readonly Tool<never>[];
  /** The set's own `dispose()` (object form), run after the tools' `dispose()`. */
  readonly dispose?: () => void | Promise<void>;
}

const NONE: SessionTools = Object.freeze({ tools: Object.freeze([]) as readonly Tool<never>[] });

function flatten(items: readonly RegistrableTool[]): Tool<never>[] {
  return items.flatMap((item) => {
    const normalized = toRegistrable(item);
    return normalized instanceof ToolPackage ? [...normalized.tools] : [normalized];
  });
}

/**
 * Calls the factory for one long-lived view and converts what it made into toolkit tools.
 * Instances whose name is already registered are skipped (and logged): a session must not
 * shadow a shared tool.
 * @throws whatever the factory throws; InvalidToolError when an item is not a tool or its schemas
 *   are unusable (as for `registerTool`; the set's `dispose()` has then already run).
 */
export function makeSessionTools(
  factory: SessionToolsFactory | undefined,
  session: SessionToolsContext,
  registry: ToolRegistry,
  logger: Logger,
): SessionTools {
  if (!factory) return NONE;
  let made: { items: readonly RegistrableTool[]; dispose?: () => void | Promise<void> };
  if (typeof factory === 'function') {
    const result = factory(session);
    made = { items: Array.isArray(result) ? result : [result as RegistrableTool] };
  } else {
    const set = factory.create();
    made = { items: set.tools, dispose: () => set.dispose() };
  }
  let tools: Tool<never>[];
  try {
    tools = flatten(made.items);
    for (const tool of tools) tool.compiled(); // refuse a broken schema now, as registerTool does
  } catch (error) {
    runDispose(made.dispose, logger);
    throw error;
  }
  return {
    tools: tools.filter((tool) => {
      if (!registry.get(tool.name)) return true;
      logger.error({ tool: tool.name }, 'session tool name clashes with a registered tool; skipped');
      return false;
    }),
    dispose: made.dispose,
  };
}

function runDispose(dispose: (() => unknown) | undefined, logger: Logger, tool?: string): Promise<void> {
  return Promise.resolve()
    .then(() => dispose?.())
    .then(
      () => undefined,
      (error: unknown) => logger.warn({ err: error, ...(tool && { tool }) }, 'session tool dispose failed'),
    );
}

/**
 * Runs each instance's `dispose()` (if it has one) and then the set's `dispose()` exactly once,
 * when `view` closes.
 */
export function disposeOnClose(view: Server, own: SessionTools, logger: Logger): void {
  if (own.tools.length === 0 && !own.dispose) return;
  const previous = view.onclose;
  view.onclose = () => {
    previous?.();
    const tools = own.tools.map((tool) =>
      runDispose(() => (tool as { dispose?: () => unknown }).dispose?.(), logger, tool.name),
    );
    void Promise.all(tools).then(() => runDispose(own.dispose, logger));
  };
}
