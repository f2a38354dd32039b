import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  type ClientCapabilities,
  type ServerContext,
  type Task,
} from '@modelcontextprotocol/server';
import type { TaskErrorObject, TaskRecord, TaskStatus } from '../store/task-store.js';

/** The tasks extension's id (SEP-2663, protocol revision 2026-07-28). */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** `_meta` key tying a 2025-11-25 message to its task (MCP "Tasks / Related task metadata"). */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/** The 2025-11-25 `tasks` server capability: list, cancel, task-augmented `tools/call`. */
export const LEGACY_TASKS_CAPABILITY = Object.freeze({
  list: {},
  cancel: {},
  requests: { tools: { call: {} } },
});

const iso = (ms: number) => new Date(ms).toISOString();

/** A 2025-11-25 `Task` on the wire (MCP "Tasks / Task"): ISO-8601 times, `ttl` / `pollInterval` in ms. */
export type LegacyWireTask = Task;

/** The flat `Task` of the 2026-07-28 extension (SEP-2663): ISO-8601 times, `ttlMs` / `pollIntervalMs`. */
export type ExtensionWireTask = {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
};

/** The extension's `tasks/get` answer: the task plus what its state carries. */
export type DetailedWireTask = ExtensionWireTask & {
  resultType: 'complete';
  /** While `input_required`: the pending requests, keyed like `tasks/update`'s `inputResponses`. */
  inputRequests?: Record<string, Record<string, unknown>>;
  /** When `completed`: the tool's `CallToolResult`. */
  result?: Record<string, unknown>;
  /** When `failed`: the JSON-RPC error. */
  error?: TaskErrorObject;
};

/** The fields both wire forms share, in wire order. */
function commonFields(task: TaskRecord) {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.lastUpdatedAt),
  };
}

/** A task as 2025-11-25 puts it on the wire (`Task`: `ttl`, `pollInterval`). */
export function legacyTask(task: TaskRecord): LegacyWireTask {
  return {
    ...commonFields(task),
    ttl: task.ttlMs,
    ...(task.pollIntervalMs !== undefined && { pollInterval: task.pollIntervalMs }),
  };
}

/** The flat `Task` of the 2026-07-28 extension (`ttlMs`, `pollIntervalMs`), without outcome fields. */
export function extensionTask(task: TaskRecord): ExtensionWireTask {
  return {
    ...commonFields(task),
    ttlMs: task.ttlMs,
    ...(task.pollIntervalMs !== undefined && { pollIntervalMs: task.pollIntervalMs }),
  };
}

/**
 * The extension's `DetailedTask` (`tasks/get`): the task plus `inputRequests` while
 * `input_required`, the inlined `result` when `completed`, the `error` when `failed`.
 */
export function detailedTask(task: TaskRecord): DetailedWireTask {
  return {
    resultType: 'complete',
    ...extensionTask(task),
    ...(task.status === 'input_required' && task.inputRequests && { inputRequests: task.inputRequests }),
    ...(task.status === 'completed' && task.result && { result: task.result }),
    ...(task.status === 'failed' && task.error && { error: task.error }),
  };
}

/** Whether this 2026-07-28 request declares the tasks extension in its per-request capabilities. */
export function optedIntoTasks(ctx: ServerContext): boolean {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION_ID] !== undefined;
}

/** JSON-RPC -32021 naming the tasks extension (SEP-2575 "Missing Required Capabilities", SEP-2663). */
export function tasksExtensionRequired(message: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } },
    message,
  );
}

/**
 * The principal a task is bound to: the authenticated client (`authInfo.clientId`), else the
 * legacy session, else (stdio) the connection's view. A 2026-07-28 HTTP request without auth
 * has none of these: its tasks share the principal `anonymous`, protected by their
 * unguessable ids alone (configure `authenticate` to separate clients).
 */
export function taskOwner(ctx: ServerContext, viewId: string): string {
  const clientId = ctx.http?.authInfo?.clientId;
  if (clientId) return `client:${clientId}`;
  if (ctx.sessionId) return `session:${ctx.sessionId}`;
  return ctx.http ? 'anonymous' : `connection:${viewId}`;
}
