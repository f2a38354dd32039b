import { ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import type { Tool } from '../../registry/tool.js';
import { invalidArgumentsResult } from '../../registry/tool-result.js';
import type { TaskManager } from '../engine/task-manager.js';
import type { TaskRecord } from '../store/task-store.js';
import { requestEra } from '../../mcp/context/tool-context-builder.js';
import { callTool, type ToolCallDeps } from '../../mcp/view/tool-call.js';
import { optedIntoTasks, tasksExtensionRequired } from './task-wire.js';

/** What a view needs to answer `tools/call` with tasks. */
export interface TaskCallDeps extends ToolCallDeps {
  manager: TaskManager;
  /** Random id of this view: the principal of a stdio connection without auth. */
  viewId: string;
  /** Called once per task this view created. */
  onCreated?(task: TaskRecord): void;
}

/** `tools/call` params as both eras send them (`task` only on 2025-11-25). */
export interface ToolCallParams {
  name: string;
  arguments?: Record<string, unknown>;
  task?: unknown;
}

/**
 * Serves `tools/call` with tasks (MCP 2025-11-25 "Tasks", SEP-2663): decides whether the call
 * becomes a task, and otherwise hands it to the ordinary {@link callTool}.
 *
 * - 2025-11-25: a `task` param on a tool whose `taskSupport` is `forbidden` is -32601, and so is
 *   a call without it to a `required` tool (as the spec says); otherwise a `task` param gets a
 *   `CreateTaskResult` at once.
 * - 2026-07-28: a task-capable tool called by a client that declares the extension in the
 *   request's capabilities becomes a task (after `taskAfterMs`); a `required` tool called
 *   without it is -32021 naming the extension; the legacy `task` param is ignored.
 */
export function callToolWithTasks(deps: TaskCallDeps, params: ToolCallParams, ctx: ServerContext) {
  // Not async: an ordinary call returns callTool's promise as it is (no extra promise per call).
  const resolved = deps.tools.resolve(params.name, ctx.http?.authInfo);
  const { tool } = resolved;
  const support = tool?.taskSupport ?? 'forbidden';
  if (!tool) return callTool(deps, params.name, params.arguments, ctx, resolved);
  const modern = requestEra(ctx) === 'modern';
  let requestedTtl: number | null | undefined;
  if (modern) {
    if (support === 'forbidden') return callTool(deps, params.name, params.arguments, ctx, resolved);
    if (!optedIntoTasks(ctx)) {
      if (support === 'optional') return callTool(deps, params.name, params.arguments, ctx, resolved);
      throw tasksExtensionRequired(
        `Tool "${tool.name}" runs only as a task: declare the ${'io.modelcontextprotocol/tasks'} extension in the request's client capabilities.`,
      );
    }
  } else {
    const task = params.task;
    if (task === undefined) {
      if (support !== 'required') return callTool(deps, params.name, params.arguments, ctx, resolved);
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `Tool "${tool.name}" must be called as a task: add the "task" parameter to tools/call.`,
      );
    }
    if (support === 'forbidden') {
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `Tool "${tool.name}" does not support task-augmented calls: call it without the "task" parameter.`,
      );
    }
    if (typeof task !== 'object' || task === null || Array.isArray(task)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'Invalid "task" parameter: expected an object { ttl? }.',
      );
    }
    const ttl = (task as { ttl?: unknown }).ttl;
    if (ttl !== undefined && ttl !== null && (typeof ttl !== 'number' || !(ttl > 0))) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid "task.ttl": expected a positive number of ms.');
    }
    requestedTtl = ttl as number | null | undefined;
  }
  return startTask(deps, tool, params.arguments, ctx, modern, requestedTtl);
}

/** Validates the arguments of a call that becomes a task, then starts it. */
async function startTask(
  deps: TaskCallDeps,
  tool: Tool<never>,
  args: unknown,
  ctx: ServerContext,
  modern: boolean,
  requestedTtl: number | null | undefined,
) {
  const parsed = await tool.compiled().input.validate(args);
  if (!parsed.ok) return invalidArgumentsResult(tool.name, parsed.issues);
  // The run itself loads with the first task: a server whose clients never ask for one never compiles it (W0).
  const { TaskCall } = await import('./task-run.js');
  return new TaskCall(deps, tool, ctx, modern).start(parsed.value, requestedTtl);
}
