import type { AuthInfo, Server } from '@modelcontextprotocol/server';
import type { Logger } from '../../logger.js';
import type { Tool } from '../../registry/tool.js';
import { ToolPackage } from '../../registry/tool-package.js';
import type { ToolRegistry } from '../../registry/tool-registry.js';

/** Makes one session's own tool instances (see `BaseMcpServerOptions.sessionTools`). */
export type SessionToolsFactory = (session: {
  era: 'legacy' | 'modern';
  authInfo?: AuthInfo;
}) => Tool<never>[] | ToolPackage;

/**
 * Calls the factory for one long-lived view. Instances whose name is already registered are
 * skipped (and logged): a session must not shadow a shared tool.
 */
export function makeSessionTools(
  factory: SessionToolsFactory | undefined,
  session: { era: 'legacy' | 'modern'; authInfo?: AuthInfo },
  registry: ToolRegistry,
  logger: Logger,
): Tool<never>[] {
  if (!factory) return [];
  const made = factory(session);
  const tools = made instanceof ToolPackage ? [...made.tools] : made;
  return tools.filter((tool) => {
    if (!registry.get(tool.name)) return true;
    logger.error({ tool: tool.name }, 'session tool name clashes with a registered tool; skipped');
    return false;
  });
}

/** Runs each instance's `dispose()` (if it has one) exactly once, when `view` closes. */
export function disposeOnClose(view: Server, tools: readonly Tool<never>[], logger: Logger): void {
  if (tools.length === 0) return;
  const previous = view.onclose;
  view.onclose = () => {
    previous?.();
    for (const tool of tools) {
      Promise.resolve()
        .then(() => (tool as { dispose?: () => unknown }).dispose?.())
        .catch((error: unknown) => logger.warn({ err: error, tool: tool.name }, 'session tool dispose failed'));
    }
  };
}
