import { isSpecType, ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TaskError } from '../../errors.js';
import type { PendingInput, TaskManager } from '../engine/task-manager.js';
import { isTerminalTaskStatus, type TaskRecord } from '../store/task-store.js';
import { requestEra } from '../../mcp/context/tool-context-builder.js';
import {
  detailedTask,
  legacyTask,
  optedIntoTasks,
  RELATED_TASK_META_KEY,
  TASKS_EXTENSION_ID,
  tasksExtensionRequired,
} from './task-wire.js';

// The bodies of the task methods (MCP 2025-11-25 "Basic / Utilities / Tasks"; SEP-2663), loaded with a server's first
// task request (a `dist/lazy/` entry loaded with `import()` by task-handlers.ts, which installs them on every view).

const InputResponses = z.record(z.string(), z.unknown());

/** Page size of 2025-11-25 `tasks/list`. */
const TASK_LIST_PAGE = 100;

/** Whose tasks a request sees, through which manager. */
export interface TaskScope {
  readonly manager: TaskManager;
  /** The principal the request's tasks belong to. */
  owner(ctx: ServerContext): string;
}

/** -32021 on 2026-07-28 unless the request declares the tasks extension. */
function gate(ctx: ServerContext, method: string): void {
  if (requestEra(ctx) === 'modern' && !optedIntoTasks(ctx)) {
    throw tasksExtensionRequired(`${method} needs the ${TASKS_EXTENSION_ID} extension in the request's capabilities.`);
  }
}

/** `tasks/get`: the `Task` (2025-11-25) or `DetailedTask` (2026-07-28) of one of the caller's tasks. */
export async function getTask({ manager, owner }: TaskScope, taskId: string, ctx: ServerContext) {
  gate(ctx, 'tasks/get');
  const task = await found(manager.get(taskId, owner(ctx)));
  return requestEra(ctx) === 'modern' ? detailedTask(task) : legacyTask(task);
}

/** `tasks/cancel`: the cancelled `Task` (2025-11-25; -32602 when already terminal) or an empty ack (2026-07-28). */
export async function cancelTask({ manager, owner }: TaskScope, taskId: string, ctx: ServerContext) {
  gate(ctx, 'tasks/cancel');
  if (requestEra(ctx) === 'modern') {
    await found(manager.cancel(taskId, owner(ctx)));
    return { resultType: 'complete' };
  }
  const before = await found(manager.get(taskId, owner(ctx)));
  if (isTerminalTaskStatus(before.status)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Cannot cancel task ${before.taskId}: it is already ${before.status}.`,
    );
  }
  return legacyTask(await found(manager.cancel(taskId, owner(ctx))));
}

/** `tasks/update` (2026-07-28 only): answers a task's `inputRequests`. */
export async function updateTask(
  { manager, owner }: TaskScope,
  params: { taskId: string; inputResponses?: Record<string, unknown> },
  ctx: ServerContext,
) {
  if (requestEra(ctx) !== 'modern') throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
  gate(ctx, 'tasks/update');
  // The SDK lifts `inputResponses` off the params of every 2026-07-28 request (multi-round-trip).
  const responses = InputResponses.safeParse(params.inputResponses ?? ctx.mcpReq.inputResponses);
  if (!responses.success) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'Invalid params for tasks/update: inputResponses must be an object keyed like inputRequests.',
    );
  }
  await found(manager.answerInput(params.taskId, owner(ctx), responses.data));
  return { resultType: 'complete' };
}

/** `tasks/list` (2025-11-25): the caller's tasks, paginated. */
export async function listTasks({ manager, owner }: TaskScope, cursor: string | undefined, ctx: ServerContext) {
  const page = await found(manager.list(owner(ctx), cursor, TASK_LIST_PAGE));
  return {
    tasks: page.tasks.map(legacyTask),
    ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
  };
}

/** `tasks/result` (2025-11-25): blocks until the task ends, sending its pending input requests on the way. */
export async function taskResult({ manager, owner }: TaskScope, taskId: string, ctx: ServerContext) {
  for (;;) {
    const watch = manager.watch(taskId, manager.policy.pollIntervalMs, ctx.mcpReq.signal);
    try {
      const task = await found(manager.get(taskId, owner(ctx)));
      if (isTerminalTaskStatus(task.status)) return legacyOutcome(task);
      for (const pending of manager.unsentInput(taskId)) void sendInput(ctx, taskId, pending);
      await watch.changed;
    } finally {
      watch.stop();
    }
    if (ctx.mcpReq.signal.aborted) throw new ProtocolError(ProtocolErrorCode.InternalError, 'Request cancelled.');
  }
}

/** What `tasks/result` answers for a terminal task (2025-11-25): the result, or the error. */
function legacyOutcome(task: TaskRecord) {
  const related = { [RELATED_TASK_META_KEY]: { taskId: task.taskId } };
  if (task.status === 'completed' && task.result) {
    const meta = (task.result._meta as Record<string, unknown> | undefined) ?? {};
    return { ...task.result, _meta: { ...meta, ...related } };
  }
  if (task.status === 'failed' && task.error) {
    throw new ProtocolError(task.error.code, task.error.message, task.error.data);
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${task.taskId} was cancelled; it has no result.`);
}

/** Sends one pending request of a task to the client on this `tasks/result` (2025-11-25) and hands back the answer. */
async function sendInput(ctx: ServerContext, taskId: string, pending: PendingInput): Promise<void> {
  pending.sent = true;
  const _meta = { [RELATED_TASK_META_KEY]: { taskId } };
  const params = { ...pending.request.params, _meta };
  try {
    let answer: unknown;
    // Sent as it is: the task checks the answer (and asks again) the same way on both wires.
    if (pending.request.method === 'elicitation/create') {
      answer = await ctx.mcpReq.send({ method: 'elicitation/create', params });
    } else if (pending.request.method === 'sampling/createMessage') {
      // The task built it from the tool's typed `sample()` params; the guard gives them their SDK type back.
      if (!isSpecType.CreateMessageRequestParams(params)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid sampling/createMessage params.');
      }
      answer = await ctx.mcpReq.requestSampling(params);
    } else answer = await ctx.mcpReq.send({ method: 'roots/list', params: { _meta } });
    pending.resolve(answer);
  } catch (error) {
    pending.reject(error);
  }
}

/** Awaits a task lookup, turning "not found" and bad cursors into JSON-RPC -32602. */
async function found<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof TaskError && error.code !== 'SERVER_STATE') {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
    }
    throw error;
  }
}
