import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Server } from '@modelcontextprotocol/server';
import type { ToolRegistry } from '../registry/tool-registry.js';
import { errorToCallToolResult, invalidArgumentsResult, toCallToolResult } from '../registry/tool-result.js';
import { buildToolContext } from './tool-context-builder.js';

/**
 * Installs `tools/list` and `tools/call` on a view. Both read the shared registry on
 * every request, so a toggle is visible to every view at once and a view costs
 * nothing per registered tool.
 *
 * Errors (MCP 2025-11-25 "Tools / Error Handling"): an unknown or disabled tool is a
 * JSON-RPC error -32602; invalid arguments and failures inside the tool are tool
 * results with `isError: true`, so the model can correct itself.
 */
export function installToolHandlers(server: Server, registry: ToolRegistry): void {
  server.setRequestHandler('tools/list', () => ({ tools: registry.listEnabled() as never }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const tool = registry.get(name);
    if (!tool) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${name}". Call tools/list to see the tools this server offers.`,
      );
    }
    if (!registry.isEnabled(name)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool "${name}" is disabled on this server.`);
    }
    const compiled = tool.compiled();
    const parsed = await compiled.input.validate(args);
    if (!parsed.ok) return invalidArgumentsResult(name, parsed.issues);

    let result: CallToolResult;
    try {
      result = toCallToolResult(await tool.execute(parsed.value as never, buildToolContext(server, ctx)));
    } catch (error) {
      return errorToCallToolResult(name, error);
    }
    if (compiled.output && !result.isError) {
      if (result.structuredContent === undefined) {
        return errorToCallToolResult(name, new Error('it declares an outputSchema but returned no structuredContent.'));
      }
      const checked = await compiled.output.validate(result.structuredContent);
      if (!checked.ok) {
        return errorToCallToolResult(name, new Error(`its output does not match its outputSchema: ${checked.issues.join('; ')}`));
      }
    }
    return server.projectCallToolResult(result, compiled.output?.json);
  });
}
