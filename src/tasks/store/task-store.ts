/**
 * Where MCP tasks live: status, owner, TTL and the final result or error, as JSON. The running
 * work (the tool's `execute`) always stays in the process that started it; everything a client
 * can ask about a task (`tasks/get`, `tasks/result`, `tasks/list`) is answered from the store,
 * so any process sharing the store can answer it. Requests that must reach the running work
 * (`tasks/cancel`, `tasks/update` answers to an `input_required` task) are written to the store
 * too, and reach the running process through {@link TaskStore.subscribe} (or, for stores that
 * cannot push, through the server polling {@link TaskStore.get} for the tasks it runs).
 *
 * Implementations: `MemoryTaskStore` (library default, one process) and a Redis store for
 * replicas (`src/cluster/`). Follows MCP "Basic / Utilities / Tasks" (2025-11-25) and the tasks
 * extension SEP-2663 (`io.modelcontextprotocol/tasks`, 2026-07-28), whose task states are the same.
 *
 * Rules every implementation keeps:
 * - A record is visible only to its `owner`: `get` / `list` / `cancel` / `answerInput` with another
 *   owner behave exactly as for an unknown id (`undefined`, or absent from the list).
 * - Terminal states (`completed`, `failed`, `cancelled`) are final: `update`, `complete`, `cancel`
 *   and `answerInput` on a terminal task change nothing and return the stored record.
 * - A record past its `expiresAt` is gone for every method, even before `expire()` removed it.
 * - Values are JSON: what `get` returns is a copy, never the object that was written.
 */
export interface TaskStore {
  /**
   * Stores a new task. The server generates `taskId` (unguessable, 128 random bits) and
   * every timestamp.
   * @throws TaskError (code `SERVER_STATE`) when the id already exists.
   */
  create(task: NewTaskRecord): Promise<TaskRecord>;
  /** The task, or `undefined` when it does not exist, expired, or belongs to another owner. */
  get(taskId: string, owner: string): Promise<TaskRecord | undefined>;
  /**
   * Moves a non-terminal task to `working` or `input_required` (with the pending input
   * requests) and/or changes its status message. `undefined` when the task is gone.
   */
  update(taskId: string, patch: TaskStatusUpdate): Promise<TaskRecord | undefined>;
  /**
   * Stores the outcome of a non-terminal task and makes it terminal: `completed` with the
   * tool's `CallToolResult` (also when that result has `isError: true`) or `failed` with a
   * JSON-RPC error. `expiresAt` becomes `outcome.expiresAt` when given (result retention).
   */
  complete(taskId: string, outcome: TaskOutcome): Promise<TaskRecord | undefined>;
  /**
   * One page of the owner's live tasks, oldest first (by `createdAt`, then `taskId`).
   * `cursor` is a value an earlier page returned as `nextCursor`; `limit` is at least 1.
   * @throws TaskError (code `INVALID_ARGUMENTS`) when the cursor was not made by this store.
   */
  list(owner: string, page: { cursor?: string; limit: number }): Promise<TaskPage>;
  /**
   * Marks a non-terminal task `cancelled` (idempotent on terminal tasks) and tells the process
   * running it (through `subscribe`). `undefined` when the task is gone or not the owner's.
   */
  cancel(taskId: string, owner: string, statusMessage?: string): Promise<TaskRecord | undefined>;
  /**
   * Hands the client's answers to an `input_required` task (2026-07-28 `tasks/update`, keyed
   * like the task's `inputRequests`) to the process running it, through `subscribe` (a
   * `changed` then an `input` event). Answered keys leave `inputRequests` at once; when none
   * remain the task is `working` again. Answers are also kept on the record
   * (`inputResponses`) until the running process takes them with `update`, for stores that
   * cannot push. Keys that match no request are kept but change nothing.
   * `undefined` when the task is gone or not the owner's.
   */
  answerInput(taskId: string, owner: string, responses: Record<string, unknown>): Promise<TaskRecord | undefined>;
  /** Deletes every task whose `expiresAt` is at or before `now` (ms since the epoch); returns their ids. */
  expire(now: number): Promise<string[]>;
  /**
   * Optional push: `listener` sees every change to any task (made by this process or another),
   * after it is stored. The server uses it to abort work cancelled elsewhere, to deliver input
   * answers and to send status notifications. Returns an unsubscribe function.
   */
  subscribe?(listener: (event: TaskStoreEvent) => void): () => void;
  /** Releases connections and timers; the server calls it from `stop()`. */
  close?(): Promise<void>;
}

/** Task states, the same on both wire forms. The last three are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** `true` for `completed`, `failed` and `cancelled`: states a task never leaves. */
export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A JSON-RPC error object as a failed task carries it (`code`, `message`, optional `data`). */
export interface TaskErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** One stored task. Times are ms since the epoch; durations are ms. */
export interface TaskRecord {
  /** Unguessable id (base64url of 128 random bits). */
  readonly taskId: string;
  /** The principal the task is bound to: `client:<auth clientId>` or `session:<id>`. */
  readonly owner: string;
  readonly status: TaskStatus;
  /** Human-readable status (progress text, log line, cancel reason). */
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** Lifetime from `createdAt` the server promised (ms), `null` for unlimited. */
  readonly ttlMs: number | null;
  /** When the record is deleted (ms since the epoch), `null` for never. */
  readonly expiresAt: number | null;
  /** Suggested delay between the client's `tasks/get` polls (ms). */
  readonly pollIntervalMs?: number;
  /** What started the task: today always a `tools/call` of the named tool. */
  readonly request: { readonly method: 'tools/call'; readonly name: string };
  /** Which wire form created it: `2025-11-25` experimental tasks or the 2026-07-28 extension. */
  readonly wire: 'legacy' | 'extension';
  /** The tool's `CallToolResult` when `completed`. */
  readonly result?: Record<string, unknown>;
  /** The JSON-RPC error when `failed`. */
  readonly error?: TaskErrorObject;
  /** Pending requests (elicitation, sampling, ...) keyed by request key, when `input_required`. */
  readonly inputRequests?: Record<string, Record<string, unknown>>;
  /** Answers a client sent for `inputRequests`, not yet taken by the running process. */
  readonly inputResponses?: Record<string, unknown>;
  /** Incremented on every change; lets a shared store detect lost updates. */
  readonly version: number;
}

/** What `create` needs: a record without `version`, `lastUpdatedAt`, outcome or input fields. */
export type NewTaskRecord = Omit<
  TaskRecord,
  'version' | 'lastUpdatedAt' | 'result' | 'error' | 'inputRequests' | 'inputResponses'
>;

/** A status change of a running task. */
export interface TaskStatusUpdate {
  readonly status?: 'working' | 'input_required';
  /** New status message; `null` clears it. */
  readonly statusMessage?: string | null;
  /** With `input_required`: the pending requests. Moving to `working` clears them. */
  readonly inputRequests?: Record<string, Record<string, unknown>>;
  /** `true` clears `inputResponses` (the running process took them). */
  readonly takeInputResponses?: boolean;
  /** When set, replaces `expiresAt`. */
  readonly expiresAt?: number | null;
}

/** How a task ended (other than by cancel). */
export type TaskOutcome =
  | { readonly status: 'completed'; readonly result: Record<string, unknown>; readonly expiresAt?: number | null }
  | { readonly status: 'failed'; readonly error: TaskErrorObject; readonly expiresAt?: number | null };

/** One page of `list`. */
export interface TaskPage {
  readonly tasks: readonly TaskRecord[];
  /** Present when more tasks follow; pass it back as `cursor`. */
  readonly nextCursor?: string;
}

/** A change seen through `subscribe`. */
export type TaskStoreEvent =
  /** The task was created or its status, message, outcome or input requests changed. */
  | { readonly type: 'changed'; readonly task: TaskRecord }
  /** The client answered pending input requests (`answerInput`). */
  | { readonly type: 'input'; readonly task: TaskRecord; readonly responses: Record<string, unknown> }
  /** The task was deleted by `expire`. */
  | { readonly type: 'expired'; readonly taskId: string; readonly owner: string };
