import { MemoryTaskStore } from '../../tasks/memory-task-store.js';
import { TaskManager } from '../../tasks/task-manager.js';
import type { TaskPolicy } from '../../tasks/task-policy.js';
import type { TaskStore } from '../../tasks/task-store.js';
import type { ServerEvents } from './server-events.js';

/**
 * `BaseMcpServerOptions.tasks`: the task store plus the server's task policy (see
 * {@link TaskPolicy}; durations in ms). Omitted: tasks in memory with the default policy.
 */
export interface TaskOptions extends TaskPolicy {
  /** Where tasks live. Default: a new `MemoryTaskStore` (this process only). */
  store?: TaskStore;
}

/** Builds the server's task manager and reports its changes as `taskCreated` / `taskStatusChanged` events. */
export function createServerTasks(
  options: TaskOptions | undefined,
  events: ServerEvents,
  onError: (error: unknown) => void,
): TaskManager {
  const { store = new MemoryTaskStore(), ...policy } = options ?? {};
  const manager = new TaskManager(store, policy, onError);
  manager.onChange(({ kind, task }) => {
    const info = {
      taskId: task.taskId,
      owner: task.owner,
      toolName: task.request.name,
      status: task.status,
      wire: task.wire,
    };
    if (kind === 'created') events.safeEmit('taskCreated', info);
    else {
      events.safeEmit('taskStatusChanged', {
        ...info,
        ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
      });
    }
  });
  return manager;
}
