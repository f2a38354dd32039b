import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type RequestStateCodec,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { ToolCallAbortedError, UpstreamError } from '../../errors.js';
import { CallAbort } from './call-abort.js';
import { requestAbortOf } from '../sdk-internals/plain-request-context.js';
import type { Tool } from '../../registry/tool.js';
import { errorToCallToolResult, invalidArgumentsResult, toCallToolResult } from '../../registry/tool-result.js';
import { inputRoundOutcome, InputRounds, type InputState } from '../context/input-rounds.js';
import type { ServerEvents } from '../server/server-events.js';
import { buildToolContext, requestEra } from '../context/tool-context-builder.js';
import type { InFlightCalls } from '../server/in-flight-calls.js';
import type { ViewTools } from './view-tools.js';

/** What a view needs to run tool calls. */
export interface ToolCallDeps {
  server: Server;
  tools: ViewTools;
  events: ServerEvents;
  requestState: RequestStateCodec<InputState>;
  /** Where running calls are registered, so a shutdown or a closing session can abort them. */
  calls: InFlightCalls;
  /** Time limit (ms) for tools without their own `timeoutMs` (the server's `defaultToolTimeoutMs`). */
  defaultTimeoutMs?: number;
}

/** Abort reasons that end the call with a JSON-RPC error rather than a tool result: nobody asked for a result. */
function endsWithProtocolError(error: unknown): error is ToolCallAbortedError {
  return error instanceof ToolCallAbortedError && (error.reason === 'shutdown' || error.reason === 'disconnected');
}

const URL_REQUIRED = ProtocolErrorCode.UrlElicitationRequired;

/**
 * The -32042 URLElicitationRequiredError (MCP 2025-11-25 "URL mode elicitation") to answer a
 * handshake-era call with: the SDK's `UrlElicitationRequiredError` thrown by a tool, or an
 * upstream's (its data, the URL elicitations, kept). Undefined for any other error and on
 * 2026-07-28 (`modern`), which has no such code (a tool uses `context.elicitUrl()`): there the
 * error ends in an `isError` result with its message.
 */
function urlElicitationError(error: unknown, modern: boolean): ProtocolError | undefined {
  if (modern) return undefined;
  if (error instanceof ProtocolError && error.code === URL_REQUIRED) return error;
  if (error instanceof UpstreamError && error.rpcCode === URL_REQUIRED) {
    return new ProtocolError(URL_REQUIRED, error.message, error.data);
  }
  return undefined;
}

/**
 * Serves one `tools/call` (MCP 2025-11-25 / 2026-07-28 "Tools"): resolve, validate,
 * run with a signal that aborts on cancellation, disconnection, session end, `stop()` or
 * `timeoutMs` (the tool's, else the server's default), check `structuredContent` against the output schema, and report
 * start/finish events.
 *
 * @throws ProtocolError -32602 for an unknown (or inaccessible) or disabled tool; -32603
 *   with the abort's message when the call was ended by `stop()` (`shutdown`) or by its
 *   connection or session going away (`disconnected`).
 */
export async function callTool(
  deps: ToolCallDeps,
  name: string,
  args: unknown,
  ctx: ServerContext,
  resolved: ReturnType<ViewTools['resolve']> = deps.tools.resolve(name, ctx.http?.authInfo),
) {
  const { tool, problem } = resolved;
  if (!tool) {
    const message =
      problem === 'disabled'
        ? `Tool "${name}" is disabled on this server.`
        : `Unknown tool "${name}". Call tools/list to see the tools this server offers.`;
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, message);
  }
  // Hot path (profiled, W2): a synchronous validator or tool is not awaited, so a plain
  // call costs this async function's one promise and no further microtask hops.
  const compiled = tool.compiled();
  const checking = compiled.input.validate(args);
  const parsed = checking instanceof Promise ? await checking : checking;
  const { events } = deps;
  if (!parsed.ok) {
    // execute never runs, but observers still see the failed call (as the client does).
    const result = invalidArgumentsResult(name, parsed.issues);
    events.safeEmit('toolCallFinished', {
      name: tool.name, // events use the registered name (an override may rename it for clients)
      requestId: ctx.mcpReq.id,
      sessionId: ctx.sessionId,
      args: (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>,
      durationMs: 0,
      isError: true,
      result,
    });
    return result;
  }

  const abort = new CallAbort(requestAbortOf(ctx), () =>
    deps.server.transport
      ? new ToolCallAbortedError('cancelled', `The client cancelled the call to "${name}".`)
      : new ToolCallAbortedError('disconnected', `The connection closed during the call to "${name}".`),
  );
  const rounds = requestEra(ctx) === 'modern' ? InputRounds.fromContext(ctx) : undefined;
  const context = buildToolContext(deps.server, ctx, abort, rounds);

  deps.calls.begin(deps.server, ctx.mcpReq.id, abort);
  // Events are built only for listeners (none in a plain server: a call then allocates less).
  const observed = events.listenerCount('toolCallStarted') + events.listenerCount('toolCallFinished') > 0;
  const started = observed ? performance.now() : 0;
  const base = observed
    ? {
        name: tool.name,
        requestId: ctx.mcpReq.id,
        sessionId: ctx.sessionId,
        args: parsed.value as Record<string, unknown>,
      }
    : undefined;
  if (base) events.safeEmit('toolCallStarted', base);
  let thrown: unknown;
  let result: CallToolResult;
  try {
    const timeoutMs = tool.timeoutMs ?? deps.defaultTimeoutMs;
    const running = abort.run(
      () => tool.execute(parsed.value as never, context),
      timeoutMs,
      () => new ToolCallAbortedError('timeout', `Tool "${name}" timed out after ${timeoutMs} ms.`),
    );
    result = toCallToolResult(running instanceof Promise ? await running : running);
    if (compiled.output) result = await checkOutput(tool, result);
  } catch (error) {
    const finish = (extra: { isError: boolean; inputRequired?: true; error?: unknown }) => {
      if (base) events.safeEmit('toolCallFinished', { ...base, durationMs: performance.now() - started, ...extra });
    };
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
    if (endsWithProtocolError(error)) {
      finish({ isError: true, error });
      throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
    }
    const urlRequired = urlElicitationError(error, rounds !== undefined);
    if (urlRequired) {
      finish({ isError: true, error }); // -32042 tells a handshake-era client which URLs to open first
      throw urlRequired;
    }
    if (error instanceof UpstreamError && error.rpcCode !== undefined && error.rpcCode !== URL_REQUIRED) {
      finish({ isError: true, error }); // a forwarded call keeps the upstream's JSON-RPC error
      throw new ProtocolError(error.rpcCode, error.message, error.data);
    }
    thrown = error;
    result = errorToCallToolResult(name, error);
  } finally {
    abort.dispose();
    deps.calls.end(deps.server, ctx.mcpReq.id, abort);
    const pending = abort.pendingExecution; // a tool that ignored its aborted signal still runs
    if (pending && abort.reason) {
      deps.calls.abandoned.add(pending, { toolName: name, requestId: ctx.mcpReq.id, reason: abort.reason.reason });
    }
  }
  if (base) {
    events.safeEmit('toolCallFinished', {
      ...base,
      durationMs: performance.now() - started,
      isError: result.isError === true,
      result,
      ...(thrown !== undefined && { error: thrown }),
    });
  }
  return deps.server.projectCallToolResult(result, compiled.output?.json);
}

/**
 * With an output schema, a result's `structuredContent` must be present and valid (else a tool
 * error). A tool error (`isError: true`) may leave it out; when it has one that does not match
 * the schema, the result goes out without it (its `content` still says what failed): clients
 * validate `structuredContent` against the listed `outputSchema` (the v1 SDK client even on
 * errors, and throws instead of showing the error). MCP 2025-11-25 "Tools / Output Schema":
 * servers MUST provide structured results that conform to it.
 * Every tool error with an output schema passes here (direct calls and task results); the errors
 * the toolkit builds itself (thrown errors, invalid arguments, oversize replies) carry none.
 */
export async function checkOutput(tool: Tool<never>, result: CallToolResult): Promise<CallToolResult> {
  const output = tool.compiled().output;
  if (!output) return result;
  if (result.isError) {
    if (result.structuredContent === undefined) return result;
    if ((await output.validate(result.structuredContent)).ok) return result;
    const { structuredContent: _mismatched, ...rest } = result;
    return rest;
  }
  if (result.structuredContent === undefined) {
    throw new Error('it declares an outputSchema but returned no structuredContent.');
  }
  const checked = await output.validate(result.structuredContent);
  if (!checked.ok) throw new Error(`its output does not match its outputSchema: ${checked.issues.join('; ')}`);
  return result;
}
