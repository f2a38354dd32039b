import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type RequestStateCodec,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { ToolCallAbortedError } from '../errors.js';
import type { Tool } from '../registry/tool.js';
import { errorToCallToolResult, invalidArgumentsResult, toCallToolResult } from '../registry/tool-result.js';
import { inputRoundOutcome, InputRounds, type InputState } from './input-rounds.js';
import type { ServerEvents } from './server-events.js';
import { buildToolContext, requestEra } from './tool-context-builder.js';
import type { ViewTools } from './view-tools.js';

/** What a view needs to run tool calls. */
export interface ToolCallDeps {
  server: Server;
  tools: ViewTools;
  events: ServerEvents;
  requestState: RequestStateCodec<InputState>;
}

/** Aborts `controller` with a reason saying why; the first reason wins. */
function abortWith(controller: AbortController, reason: ToolCallAbortedError): void {
  if (!controller.signal.aborted) controller.abort(reason);
}

/**
 * Serves one `tools/call` (MCP 2025-11-25 / 2026-07-28 "Tools"): resolve, validate,
 * run with a signal that aborts on cancellation, disconnection or `timeoutMs`, check
 * `structuredContent` against the output schema, and report start/finish events.
 *
 * @throws ProtocolError -32602 for an unknown (or inaccessible) or disabled tool.
 */
export async function callTool(deps: ToolCallDeps, name: string, args: unknown, ctx: ServerContext) {
  const auth = ctx.http?.authInfo;
  const { tool, problem } = deps.tools.resolve(name, auth);
  if (!tool) {
    const message =
      problem === 'disabled'
        ? `Tool "${name}" is disabled on this server.`
        : `Unknown tool "${name}". Call tools/list to see the tools this server offers.`;
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, message);
  }
  const compiled = tool.compiled();
  const parsed = await compiled.input.validate(args);
  if (!parsed.ok) return invalidArgumentsResult(name, parsed.issues);

  const controller = new AbortController();
  const onUpstreamAbort = () =>
    abortWith(
      controller,
      deps.server.transport
        ? new ToolCallAbortedError('cancelled', `The client cancelled the call to "${name}".`)
        : new ToolCallAbortedError('disconnected', `The connection closed during the call to "${name}".`),
    );
  ctx.mcpReq.signal.addEventListener('abort', onUpstreamAbort, { once: true });
  if (ctx.mcpReq.signal.aborted) onUpstreamAbort();
  const rounds = requestEra(ctx) === 'modern' ? InputRounds.fromContext(ctx) : undefined;
  const context = buildToolContext(deps.server, ctx, controller.signal, rounds);

  const started = performance.now();
  const base = { name, requestId: ctx.mcpReq.id, sessionId: ctx.sessionId };
  deps.events.safeEmit('toolCallStarted', base);
  let thrown: unknown;
  let result: CallToolResult;
  try {
    result = toCallToolResult(await runWithTimeout(tool, parsed.value, context, controller));
    result = await checkOutput(tool, result);
  } catch (error) {
    const finish = (extra: { isError: boolean; inputRequired?: true; error?: unknown }) =>
      deps.events.safeEmit('toolCallFinished', { ...base, durationMs: performance.now() - started, ...extra });
    let outcome: Awaited<ReturnType<typeof inputRoundOutcome>>;
    try {
      outcome = await inputRoundOutcome(error, rounds, deps.requestState, ctx);
    } catch (protocolError) {
      finish({ isError: true, error });
      throw protocolError;
    }
    if (outcome) {
      finish({ isError: false, inputRequired: true });
      return outcome;
    }
    thrown = error;
    result = errorToCallToolResult(name, error);
  } finally {
    ctx.mcpReq.signal.removeEventListener('abort', onUpstreamAbort);
  }
  deps.events.safeEmit('toolCallFinished', {
    ...base,
    durationMs: performance.now() - started,
    isError: result.isError === true,
    ...(thrown !== undefined && { error: thrown }),
  });
  return deps.server.projectCallToolResult(result, compiled.output?.json);
}

/** Runs `execute`, racing it against the tool's `timeoutMs` and the abort signal. */
async function runWithTimeout(
  tool: Tool<never>,
  args: unknown,
  context: ReturnType<typeof buildToolContext>,
  controller: AbortController,
) {
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(controller.signal.reason);
    controller.signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => {}); // observed below; avoid an unhandled rejection when execute wins
  const timer =
    tool.timeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            abortWith(
              controller,
              new ToolCallAbortedError('timeout', `Tool "${tool.name}" timed out after ${tool.timeoutMs} ms.`),
            ),
          tool.timeoutMs,
        );
  try {
    return await Promise.race([Promise.resolve(tool.execute(args as never, context)), aborted]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** With an output schema, `structuredContent` must be present and valid (else a tool error). */
async function checkOutput(tool: Tool<never>, result: CallToolResult): Promise<CallToolResult> {
  const output = tool.compiled().output;
  if (!output || result.isError) return result;
  if (result.structuredContent === undefined) {
    throw new Error('it declares an outputSchema but returned no structuredContent.');
  }
  const checked = await output.validate(result.structuredContent);
  if (!checked.ok) throw new Error(`its output does not match its outputSchema: ${checked.issues.join('; ')}`);
  return result;
}
