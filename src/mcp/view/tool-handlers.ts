import type { HandlerRoutes } from '../pipeline/request-pipeline.js';
import { paginate } from './pagination.js';
import { callTool, type ToolCallDeps } from './tool-call.js';

/**
 * Installs `tools/list` and `tools/call` on a view. Both read the shared registry (plus
 * the view's per-session tools) on every request, so a toggle is visible to every view
 * at once and a view costs nothing per registered tool.
 *
 * Errors (MCP "Tools / Error Handling"): an unknown, inaccessible or disabled tool is a
 * JSON-RPC error -32602; invalid arguments and failures inside the tool are tool
 * results with `isError: true`, so the model can correct itself.
 */
export function installToolHandlers(routes: HandlerRoutes, deps: ToolCallDeps): void {
  routes.setRequestHandler('tools/list', (request, ctx) => {
    const { page, nextCursor } = paginate(deps.tools.list(ctx.http?.authInfo), request.params?.cursor, Infinity);
    return { tools: page as never, ...(nextCursor !== undefined && { nextCursor }) };
  });
  routes.setRequestHandler('tools/call', (request, ctx) =>
    callTool(deps, request.params.name, request.params.arguments, ctx),
  );
}
