import { MemoryTaskStore } from '../store/memory-task-store.js';
import type { TaskStatus, TaskStore } from '../store/task-store.js';
import { TaskManager } from './task-manager.js';
import type { TaskPolicy } from './task-policy.js';

/**
 * `BaseMcpServerOptions.tasks`: the task store plus the server's task policy (see
 * {@link TaskPolicy}; durations in ms). Omitted: tasks in memory with the default policy.
 */
export interface TaskOptions extends TaskPolicy {
  /** Where tasks live. Default: a new `MemoryTaskStore` (this process only). */
  store?: TaskStore;
}

/** Which task an event is about. */
export interface TaskEventInfo {
  taskId: string;
  owner: string;
  toolName: string;
  status: TaskStatus;
  /** `legacy` (2025-11-25 `task` param) or `extension` (2026-07-28 tasks extension). */
  wire: 'legacy' | 'extension';
}

/** Where the server's task events go: its `ServerEvents` (`safeEmit` never throws). */
export interface TaskEvents {
  safeEmit(event: 'taskCreated', info: TaskEventInfo): void;
  safeEmit(event: 'taskStatusChanged', info: TaskEventInfo & { statusMessage?: string }): void;
}

/** Builds the server's task manager and reports its changes as `taskCreated` / `taskStatusChanged` events. */
export function createServerTasks(
  options: TaskOptions | undefined,
  events: TaskEvents,
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
