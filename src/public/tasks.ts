/**
 * `mcp-toolkit/tasks`: the task engine's extension points (MCP tasks, both wire forms; see
 * docs/tasks.md). A tool opts in with `task: 'optional' | 'required'` ({@link TaskSupport}); the
 * server's `tasks` option takes a {@link TaskStore} and a {@link TaskPolicy}. Import from here to
 * write your own store, to inspect `server.tasks` (a {@link TaskManager}) or to type task events.
 *
 * `TaskStatus` is also a name of `@modelcontextprotocol/server`: both are the same five MCP task
 * states (`working`, `input_required`, `completed`, `failed`, `cancelled`).
 */
export { TaskError } from '../errors.js';
export type { TaskSupport } from '../registry/tool.js';
export type { TaskOptions, TaskEventInfo } from '../tasks/engine/server-tasks.js';
export { MemoryTaskStore } from '../tasks/store/memory-task-store.js';
export {
  TaskManager,
  type TaskStart,
  type RunningTask,
  type TaskInputRequest,
  type PendingInput,
  type TaskChangeListener,
} from '../tasks/engine/task-manager.js';
export { resolveTaskPolicy, type TaskPolicy, type ResolvedTaskPolicy } from '../tasks/engine/task-policy.js';
export {
  isTerminalTaskStatus,
  type TaskStore,
  type TaskRecord,
  type NewTaskRecord,
  type TaskStatus,
  type TaskStatusUpdate,
  type TaskOutcome,
  type TaskPage,
  type TaskStoreEvent,
  type TaskErrorObject,
} from '../tasks/store/task-store.js';
