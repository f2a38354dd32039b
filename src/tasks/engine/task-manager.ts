import { TaskError, ToolCallAbortedError } from '../../errors.js';
import { resolveTaskPolicy, taskTtl, type ResolvedTaskPolicy, type TaskPolicy } from './task-policy.js';
import {
  isTerminalTaskStatus,
  type TaskOutcome,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
  type TaskStoreEvent,
} from '../store/task-store.js';
import { toBase64Url } from '../../bytes.js';

/** What starts a task: who owns it, what runs, which wire form asked, the lifetime asked for. */
export interface TaskStart {
  readonly owner: string;
  readonly toolName: string;
  readonly wire: TaskRecord['wire'];
  /** The client's requested `ttl` (ms), if any. */
  readonly requestedTtlMs?: number | null;
}

/** A request the running work sends to the client through the task (elicitation, sampling, roots). */
export interface TaskInputRequest {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/** A pending input request of a running task, waiting for the client's answer. */
export interface PendingInput {
  readonly key: string;
  readonly request: TaskInputRequest;
  /** True once a 2025-11-25 `tasks/result` took it to send to the client. */
  sent: boolean;
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

/** The running side of one task, handed to the work it runs. */
export interface RunningTask {
  readonly taskId: string;
  /** Aborts on `tasks/cancel` (reason `cancelled`), TTL expiry (`timeout`) or server stop (`shutdown`). */
  readonly signal: AbortSignal;
  /** Sets the task's `statusMessage` (progress text, log line); best effort, latest wins. */
  setStatusMessage(message: string): void;
  /**
   * Parks the task in `input_required` with this request until the client answers it
   * (2026-07-28 `tasks/update`; 2025-11-25 through `tasks/result`). Rejects when the task
   * is cancelled or expires first.
   */
  requestInput(key: string, request: TaskInputRequest): Promise<unknown>;
}

/** What the manager reports: a task was created, or its status, message or outcome changed. */
export interface TaskChangeListener {
  (change: { kind: 'created' | 'changed'; task: TaskRecord }): void;
}

interface Running extends RunningTask {
  readonly owner: string;
  readonly controller: AbortController;
  readonly pending: Map<string, PendingInput>;
  /** Store writes for this task, in order. */
  chain: Promise<unknown>;
}

/**
 * Runs MCP tasks on top of a {@link TaskStore}: creates them within the policy's limits,
 * runs their work in this process, writes every status change and the outcome to the store,
 * and applies cancels and input answers that arrive through the store (from this process or
 * another sharing the store). One per server; both wire forms use it.
 */
export class TaskManager {
  readonly policy: ResolvedTaskPolicy;
  readonly #running = new Map<string, Running>();
  readonly #perOwner = new Map<string, number>();
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #listeners = new Set<TaskChangeListener>();
  readonly #unsubscribe?: () => void;
  #sweep?: NodeJS.Timeout;
  #stopped = false;

  constructor(
    readonly store: TaskStore,
    policy: TaskPolicy | ResolvedTaskPolicy = {},
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.policy = resolveTaskPolicy(policy);
    this.#unsubscribe = store.subscribe?.((event) => this.#onStoreEvent(event));
  }

  /** Calls `listener` on every task created or changed (any process, when the store can push). */
  onChange(listener: TaskChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Creates a task and returns it with its running side; call {@link run} next.
   * @throws TaskError `TASK_LIMIT` when the principal or the process has too many tasks running.
   */
  async create(start: TaskStart): Promise<{ task: TaskRecord; running: RunningTask }> {
    if (this.#stopped) throw new TaskError('SERVER_STATE', 'The server is stopping; no new tasks are accepted.');
    const owned = this.#perOwner.get(start.owner) ?? 0;
    if (owned >= this.policy.maxTasksPerPrincipal) {
      throw new TaskError(
        'TASK_LIMIT',
        `Too many tasks running: at most ${this.policy.maxTasksPerPrincipal} per client; wait for one to finish or cancel one.`,
      );
    }
    if (this.#running.size >= this.policy.maxTasks) {
      throw new TaskError(
        'TASK_LIMIT',
        `The server is running its maximum of ${this.policy.maxTasks} tasks; try again later.`,
      );
    }
    this.#ensureSweep();
    const now = Date.now();
    const ttlMs = taskTtl(this.policy, start.requestedTtlMs);
    const taskId = newTaskId();
    const controller = new AbortController();
    const running: Running = {
      taskId,
      owner: start.owner,
      controller,
      signal: controller.signal,
      pending: new Map(),
      chain: Promise.resolve(),
      setStatusMessage: (message) => {
        this.#write(running, () => this.store.update(taskId, { statusMessage: message }));
      },
      requestInput: (key, request) => this.#requestInput(running, key, request),
    };
    // Counted before the store write, so concurrent creates cannot overshoot the limits.
    this.#running.set(taskId, running);
    this.#perOwner.set(start.owner, owned + 1);
    try {
      const task = await this.store.create({
        taskId,
        owner: start.owner,
        status: 'working',
        createdAt: now,
        ttlMs,
        expiresAt: now + ttlMs,
        pollIntervalMs: this.policy.pollIntervalMs,
        request: { method: 'tools/call', name: start.toolName },
        wire: start.wire,
      });
      this.#emit('created', task);
      return { task, running };
    } catch (error) {
      this.#release(running);
      throw error;
    }
  }

  /**
   * Runs `work` in the background and stores its outcome: `completed` with the result it
   * returns (tool errors included), `failed` with the JSON-RPC error when it throws one.
   * A task already cancelled or expired keeps that state.
   */
  run(runningTask: RunningTask, work: () => Promise<TaskOutcome>): void {
    const running = runningTask as Running;
    void (async () => {
      let outcome: TaskOutcome;
      try {
        outcome = await work();
      } catch (error) {
        outcome = { status: 'failed', error: { code: -32603, message: errorMessage(error) } };
      }
      const retainUntil = Date.now() + this.policy.resultRetentionMs;
      await running.chain.catch(() => {});
      try {
        const current = await this.store.get(running.taskId, running.owner);
        if (current && !isTerminalTaskStatus(current.status)) {
          const expiresAt = current.expiresAt === null ? null : Math.max(current.expiresAt, retainUntil);
          await this.store.complete(running.taskId, { ...outcome, expiresAt });
        }
      } catch (error) {
        this.onError(error);
      } finally {
        this.#release(running);
      }
    })();
  }

  /**
   * The owner's task.
   * @throws TaskError `TASK_NOT_FOUND` when it does not exist, expired, or is another principal's.
   */
  async get(taskId: string, owner: string): Promise<TaskRecord> {
    const task = await this.store.get(taskId, owner);
    if (!task) throw notFound(taskId);
    return task;
  }

  /** One page of the owner's tasks (page size: `limit`). @throws TaskError `INVALID_ARGUMENTS` for a foreign cursor. */
  list(owner: string, cursor: string | undefined, limit = 100): Promise<TaskPage> {
    return this.store.list(owner, { cursor, limit });
  }

  /**
   * Cancels the owner's task (idempotent on a terminal one) and aborts its work, wherever it runs.
   * @throws TaskError `TASK_NOT_FOUND` as {@link get}.
   */
  async cancel(taskId: string, owner: string): Promise<TaskRecord> {
    const task = await this.store.cancel(taskId, owner, 'Cancelled by the client.');
    if (!task) throw notFound(taskId);
    return task;
  }

  /**
   * Delivers answers to the owner's `input_required` task (2026-07-28 `tasks/update`).
   * @throws TaskError `TASK_NOT_FOUND` as {@link get}.
   */
  async answerInput(taskId: string, owner: string, responses: Record<string, unknown>): Promise<TaskRecord> {
    const task = await this.store.answerInput(taskId, owner, responses);
    if (!task) throw notFound(taskId);
    return task;
  }

  /** Input requests of a task running in this process that no `tasks/result` has sent yet (2025-11-25). */
  unsentInput(taskId: string): PendingInput[] {
    const running = this.#running.get(taskId);
    return running ? [...running.pending.values()].filter((p) => !p.sent) : [];
  }

  /**
   * Watches the task for its next change (or new input request): `changed` resolves then, or
   * after `maxWaitMs` (ms), or when `signal` aborts, or on `stop()`. Start watching *before*
   * reading the task, so a change between the read and the wait is not missed. Used by
   * `tasks/result`, which blocks until the task ends.
   */
  watch(taskId: string, maxWaitMs: number, signal?: AbortSignal): { changed: Promise<void>; stop(): void } {
    let waiters = this.#waiters.get(taskId);
    if (!waiters) this.#waiters.set(taskId, (waiters = new Set()));
    let resolve!: () => void;
    const changed = new Promise<void>((done) => (resolve = done));
    const stop = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      waiters.delete(stop);
      if (waiters.size === 0) this.#waiters.delete(taskId);
      resolve();
    };
    const timer = setTimeout(stop, maxWaitMs);
    signal?.addEventListener('abort', stop, { once: true });
    waiters.add(stop);
    return { changed, stop };
  }

  /** Number of tasks running in this process. */
  get runningCount(): number {
    return this.#running.size;
  }

  /** Aborts every running task (reason `shutdown`), stops the sweep and releases the store. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#sweep);
    for (const running of this.#running.values()) {
      running.controller.abort(new ToolCallAbortedError('shutdown', 'The server is stopping.'));
    }
    this.#unsubscribe?.();
    await this.store.close?.();
  }

  #requestInput(running: Running, key: string, request: TaskInputRequest): Promise<unknown> {
    if (running.signal.aborted) return Promise.reject(running.signal.reason as Error);
    return new Promise((resolve, reject) => {
      const onAbort = () => settle(() => reject(running.signal.reason as Error));
      const settle = (finish: () => void) => {
        running.signal.removeEventListener('abort', onAbort);
        running.pending.delete(key);
        finish();
        if (running.pending.size === 0 && !running.signal.aborted) {
          this.#write(running, () =>
            this.store.update(running.taskId, { status: 'working', takeInputResponses: true }),
          );
        }
      };
      running.pending.set(key, {
        key,
        request,
        sent: false,
        resolve: (answer) => settle(() => resolve(answer)),
        reject: (error) => settle(() => reject(error as Error)),
      });
      running.signal.addEventListener('abort', onAbort, { once: true });
      const inputRequests = Object.fromEntries(
        [...running.pending.values()].map((p) => [p.key, { ...p.request } as Record<string, unknown>]),
      );
      this.#write(running, () => this.store.update(running.taskId, { status: 'input_required', inputRequests }));
      this.#wake(running.taskId);
    });
  }

  #onStoreEvent(event: TaskStoreEvent): void {
    if (event.type === 'expired') {
      this.#running.get(event.taskId)?.controller.abort(expiredError());
      this.#wake(event.taskId);
      return;
    }
    const { task } = event;
    const running = this.#running.get(task.taskId);
    if (running && task.status === 'cancelled') {
      running.controller.abort(new ToolCallAbortedError('cancelled', 'The client cancelled the task.'));
    }
    if (running && event.type === 'input') this.#deliver(running, event.responses);
    if (event.type === 'changed') this.#emit('changed', task);
    this.#wake(task.taskId);
  }

  #deliver(running: Running, responses: Record<string, unknown>): void {
    for (const [key, answer] of Object.entries(responses)) running.pending.get(key)?.resolve(answer);
  }

  #write(running: Running, write: () => Promise<unknown>): void {
    running.chain = running.chain.then(write).catch((error: unknown) => this.onError(error));
  }

  #wake(taskId: string): void {
    for (const wake of [...(this.#waiters.get(taskId) ?? [])]) wake();
  }

  #emit(kind: 'created' | 'changed', task: TaskRecord): void {
    for (const listener of this.#listeners) {
      try {
        listener({ kind, task });
      } catch (error) {
        this.onError(error);
      }
    }
  }

  #release(running: Running): void {
    if (!this.#running.delete(running.taskId)) return;
    const left = (this.#perOwner.get(running.owner) ?? 1) - 1;
    if (left > 0) this.#perOwner.set(running.owner, left);
    else this.#perOwner.delete(running.owner);
    for (const pending of running.pending.values()) pending.reject(new Error('The task ended.'));
  }

  #ensureSweep(): void {
    if (this.#sweep) return;
    this.#sweep = setInterval(() => void this.#sweepOnce(), this.policy.sweepIntervalMs);
    this.#sweep.unref();
  }

  async #sweepOnce(): Promise<void> {
    try {
      await this.store.expire(Date.now());
      if (this.store.subscribe) return;
      // A store that cannot push: look for cancels and answers made elsewhere.
      for (const running of this.#running.values()) {
        const task = await this.store.get(running.taskId, running.owner);
        if (!task) running.controller.abort(expiredError());
        else if (task.status === 'cancelled') {
          running.controller.abort(new ToolCallAbortedError('cancelled', 'The client cancelled the task.'));
        } else if (task.inputResponses) this.#deliver(running, task.inputResponses);
      }
    } catch (error) {
      this.onError(error);
    }
  }
}

/** 128 random bits, base64url; drawn from a pooled buffer (one Web Crypto call per 256 ids). */
let idPool = new Uint8Array(0);
let idOffset = 0;
function newTaskId(): string {
  if (idOffset >= idPool.length) {
    idPool = crypto.getRandomValues(new Uint8Array(16 * 256));
    idOffset = 0;
  }
  const id = toBase64Url(idPool.subarray(idOffset, idOffset + 16));
  idOffset += 16;
  return id;
}

function notFound(taskId: string): TaskError {
  return new TaskError('TASK_NOT_FOUND', `Task not found: ${taskId}`);
}

function expiredError(): ToolCallAbortedError {
  return new ToolCallAbortedError('timeout', 'The task reached the end of its TTL.');
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
