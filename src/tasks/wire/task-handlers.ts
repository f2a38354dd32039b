import {
  isSpecType,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TaskError } from '../../errors.js';
import type { PendingInput, TaskManager } from '../engine/task-manager.js';
import { isTerminalTaskStatus, type TaskRecord } from '../store/task-store.js';
import { requestEra } from '../../mcp/context/tool-context-builder.js';
import { callToolWithTasks, type TaskCallDeps, type ToolCallParams } from './task-call.js';
import type { ToolCallDeps } from '../../mcp/view/tool-call.js';
import type { HandlerRoutes } from '../../mcp/pipeline/request-pipeline.js';
import type { ViewTasks } from '../../mcp/view/view.js';
import {
  detailedTask,
  LEGACY_TASKS_CAPABILITY,
  legacyTask,
  optedIntoTasks,
  RELATED_TASK_META_KEY,
  taskOwner,
  TASKS_EXTENSION_ID,
  tasksExtensionRequired,
} from './task-wire.js';

const TaskIdParams = z.looseObject({ taskId: z.string().min(1) });
const UpdateParams = z.looseObject({
  taskId: z.string().min(1),
  inputResponses: z.record(z.string(), z.unknown()).optional(),
});
const InputResponses = z.record(z.string(), z.unknown());

/** Page size of 2025-11-25 `tasks/list`. */
const TASK_LIST_PAGE = 100;

/** The tasks capability (2025-11-25) and extension (2026-07-28) of a view that serves tasks. */
const VIEW_TASKS_CAPABILITY = Object.freeze({
  legacyCapability: LEGACY_TASKS_CAPABILITY,
  extensionId: TASKS_EXTENSION_ID,
});

/**
 * MCP tasks for the views of one server (both wire forms), run by `manager`: the one way the
 * server's views reach tasks. The view declares `capability` and calls `install` once.
 */
export function viewTasks(manager: TaskManager): ViewTasks {
  return {
    capability: VIEW_TASKS_CAPABILITY,
    install: (server, routes, deps) => installTaskHandlers(server, routes, deps, manager),
  };
}

/**
 * Installs task support on a view: `tools/call` that may answer with a task, and the task
 * methods of both eras (MCP 2025-11-25 "Basic / Utilities / Tasks"; SEP-2663):
 *
 * - 2025-11-25: `tasks/get` (the `Task`), `tasks/result` (blocks until the task ends; sends the
 *   task's pending elicitation / sampling / roots requests on the way), `tasks/list` (the
 *   caller's tasks, paginated), `tasks/cancel` (the cancelled `Task`; -32602 when already terminal).
 * - 2026-07-28 (extension): `tasks/get` (`DetailedTask`), `tasks/update` (answers
 *   `inputRequests`), `tasks/cancel` (empty ack, idempotent); each -32021 unless the request
 *   declares the extension. `tasks/result` and `tasks/list` do not exist there (-32601, by the SDK).
 *
 * Every method finds only the caller's own tasks: another principal's id answers -32602
 * "Task not found", exactly like an unknown one.
 */
function installTaskHandlers(server: Server, routes: HandlerRoutes, deps: ToolCallDeps, manager: TaskManager): void {
  let viewId: string | undefined;
  let taskDeps: TaskCallDeps | undefined;
  // Made on the view's first task-aware request: a 2026-07-28 view serves one request, most of them
  // no tools/call (W4: the spread with an accessor cost every tools/list).
  const depsOf = (): TaskCallDeps =>
    (taskDeps ??= {
      ...deps,
      manager,
      // Made on first use: most views never create a task (a UUID per view would cost every request).
      get viewId() {
        return (viewId ??= crypto.randomUUID());
      },
      onCreated: (task) => {
        if (task.wire === 'legacy') notifyStatus(server, manager, task.taskId);
      },
    });
  const owner = (ctx: ServerContext) => taskOwner(ctx, depsOf().viewId);
  const gate = (ctx: ServerContext, method: string) => {
    if (requestEra(ctx) === 'modern' && !optedIntoTasks(ctx)) {
      throw tasksExtensionRequired(
        `${method} needs the ${TASKS_EXTENSION_ID} extension in the request's capabilities.`,
      );
    }
  };

  routes.setRequestHandler('tools/call', (request, ctx) =>
    callToolWithTasks(depsOf(), request.params as ToolCallParams, ctx),
  );
  // tasks/list and tasks/result are 2025-11-25 spec methods the SDK's types leave out; the SDK
  // validates them with that revision's schemas and answers -32601 for them on 2026-07-28.
  const legacyHandler = routes.setRequestHandler.bind(routes) as unknown as (
    method: string,
    handler: (request: { params: Record<string, unknown> }, ctx: ServerContext) => Promise<unknown>,
  ) => void;

  routes.setRequestHandler('tasks/get', { params: TaskIdParams }, async (params, ctx) => {
    gate(ctx, 'tasks/get');
    const task = await found(manager.get(params.taskId, owner(ctx)));
    return requestEra(ctx) === 'modern' ? detailedTask(task) : legacyTask(task);
  });

  routes.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params, ctx) => {
    gate(ctx, 'tasks/cancel');
    if (requestEra(ctx) === 'modern') {
      await found(manager.cancel(params.taskId, owner(ctx)));
      return { resultType: 'complete' };
    }
    const before = await found(manager.get(params.taskId, owner(ctx)));
    if (isTerminalTaskStatus(before.status)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Cannot cancel task ${before.taskId}: it is already ${before.status}.`,
      );
    }
    return legacyTask(await found(manager.cancel(params.taskId, owner(ctx))));
  });

  routes.setRequestHandler('tasks/update', { params: UpdateParams }, async (params, ctx) => {
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
  });

  legacyHandler('tasks/list', async (request, ctx) => {
    const cursor = request.params?.cursor as string | undefined;
    const page = await found(manager.list(owner(ctx), cursor, TASK_LIST_PAGE));
    return {
      tasks: page.tasks.map(legacyTask),
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
    };
  });

  legacyHandler('tasks/result', async (request, ctx) => {
    const taskId = request.params.taskId as string;
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
  });
}

/** Tasks each long-lived view tells its client about, and how it stops listening. */
const watched = new WeakMap<Server, { ids: Set<string>; stop: () => void }>();

/**
 * Sends `notifications/tasks/status` (2025-11-25, optional for servers) to the view's client on
 * every change of a task it created, until the task ends or the connection closes. Best effort:
 * clients must not rely on it and poll `tasks/get`.
 */
function notifyStatus(server: Server, manager: TaskManager, taskId: string): void {
  let entry = watched.get(server);
  if (!entry) {
    const ids = new Set<string>();
    const stop = manager.onChange(({ kind, task }) => {
      if (kind !== 'changed' || !ids.has(task.taskId)) return;
      if (isTerminalTaskStatus(task.status)) ids.delete(task.taskId);
      server.notification({ method: 'notifications/tasks/status', params: legacyTask(task) }).catch(() => {});
    });
    entry = { ids, stop };
    watched.set(server, entry);
    const previous = server.onclose;
    server.onclose = () => {
      stop();
      previous?.();
    };
  }
  entry.ids.add(taskId);
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
