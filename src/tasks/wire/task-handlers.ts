import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { loadOnce } from '../../lazy-module.js';
import type { TaskManager } from '../engine/task-manager.js';
import { callToolWithTasks, type TaskCallDeps, type ToolCallParams } from './task-call.js';
import type { ToolCallDeps } from '../../mcp/view/tool-call.js';
import type { HandlerRoutes } from '../../mcp/pipeline/request-pipeline.js';
import type { ViewTasks } from '../../mcp/view/view.js';
import { LEGACY_TASKS_CAPABILITY, legacyTask, taskOwner, TASKS_EXTENSION_ID } from './task-wire.js';
import { isTerminalTaskStatus } from '../store/task-store.js';
import type { TaskScope } from './task-methods.js';

/**
 * The task methods' bodies (a `dist/lazy/` entry), loaded with the first task request: most servers' clients never
 * send one (bench W0). Every method is asynchronous, so `import()` is enough.
 */
const taskMethods = loadOnce(() => import('./task-methods.js'));

const TaskIdParams = z.looseObject({ taskId: z.string().min(1) });
const UpdateParams = z.looseObject({
  taskId: z.string().min(1),
  inputResponses: z.record(z.string(), z.unknown()).optional(),
});

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
 * "Task not found", exactly like an unknown one. The bodies are in task-methods.ts.
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
  const scope: TaskScope = {
    manager,
    owner: (ctx: ServerContext) => taskOwner(ctx, depsOf().viewId),
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

  routes.setRequestHandler('tasks/get', { params: TaskIdParams }, async (params, ctx) =>
    (await taskMethods()).getTask(scope, params.taskId, ctx),
  );
  routes.setRequestHandler('tasks/cancel', { params: TaskIdParams }, async (params, ctx) =>
    (await taskMethods()).cancelTask(scope, params.taskId, ctx),
  );
  routes.setRequestHandler('tasks/update', { params: UpdateParams }, async (params, ctx) =>
    (await taskMethods()).updateTask(scope, params, ctx),
  );
  legacyHandler('tasks/list', async (request, ctx) =>
    (await taskMethods()).listTasks(scope, request.params?.cursor as string | undefined, ctx),
  );
  legacyHandler('tasks/result', async (request, ctx) =>
    (await taskMethods()).taskResult(scope, request.params.taskId as string, ctx),
  );
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
