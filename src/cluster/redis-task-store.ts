import { ClusterUnavailableError, TaskError } from '../errors.js';
import type { Logger } from '../logger.js';
import { decodeCursor, encodeCursor, MemoryTaskStore } from '../tasks/store/memory-task-store.js';
import { isTerminalTaskStatus } from '../tasks/store/task-store.js';
import type {
  NewTaskRecord,
  TaskOutcome,
  TaskPage,
  TaskRecord,
  TaskStatusUpdate,
  TaskStore,
  TaskStoreEvent,
} from '../tasks/store/task-store.js';
import type { RedisLink } from './redis-link.js';
import { CAS_TASK_SCRIPT, CREATE_TASK_SCRIPT, EXPIRE_TASK_SCRIPT } from './task-scripts.js';
import { nodeCrypto } from '../lazy-module.js';

/** How often a write retries after another process changed the same task first. */
const MAX_ATTEMPTS = 8;

/** How the store proves its process alive, so tasks of a dead process are failed (see the class notes). */
export interface TaskLeaseOptions {
  /** The replica's id, named in the failure of its tasks. */
  readonly replicaId: string;
  /** Lease refresh and sweep period, in ms; a lease lasts 3 periods. */
  readonly heartbeatMs: number;
}

/** The JSON-RPC error a task gets when the process running it is gone (-32603, internal error). */
export function ownerGoneError(replicaId: string, leaseMs: number) {
  return {
    code: -32603,
    message:
      `The replica running this task (${replicaId}) stopped: its lease was not renewed for ${leaseMs} ms, ` +
      'so its work is lost. Start the task again.',
    data: { reason: 'task_owner_gone', replicaId },
  };
}

const isLive = (task: TaskRecord, now: number) => task.expiresAt === null || task.expiresAt > now;

/**
 * A {@link TaskStore} in Redis, shared by every replica of a cluster (made by `createCluster()`),
 * so a task started on one replica is polled, listed, answered and cancelled on any other, and
 * a cancel made elsewhere reaches the replica running the work (through {@link subscribe}).
 *
 * Each record is a JSON string `<prefix>:task:<id>` that Redis deletes at `expiresAt`; the
 * owner's tasks are a sorted set (the list order: createdAt, then id) and expiring tasks another
 * one, swept by `expire()`. Every write is one Lua script that compares the record's `version`,
 * stores it and publishes the change on `<prefix>:tasks`; a write that lost a race re-reads and
 * retries. The state transitions themselves are the {@link MemoryTaskStore}'s (the reference),
 * applied to the one record being changed, so both stores behave the same.
 *
 * Redis down: every method rejects with `ClusterUnavailableError` (task requests then fail with a
 * JSON-RPC error; plain tool calls are unaffected).
 *
 * Owner lease: the work of a task lives in the process that created it. That process holds a
 * lease `<prefix>:lease:<instance>` (PX 3 x `heartbeatMs`, renewed every `heartbeatMs`) and
 * lists its tasks in `<prefix>:tasks:runner:<instance>`. Every `heartbeatMs` each process sweeps
 * the runners (`<prefix>:tasks:runners`) whose lease is gone: their tasks that are not terminal
 * become `failed` with {@link ownerGoneError} (published like any change, so every waiter, e.g.
 * a 2025-11-25 `tasks/result` on another replica, is answered). A task whose process died is
 * therefore failed within 4 x `heartbeatMs` (20 s by default). A process sweeps only after it has
 * been connected for a whole lease period, so live processes renew their leases first after an
 * outage. A process that stalls longer than its lease loses its tasks the same way; its late
 * result then changes nothing (terminal states are final).
 */
export class RedisTaskStore implements TaskStore {
  readonly #prefix: string;
  readonly #channel: string;
  readonly #instance = nodeCrypto().randomUUID();
  readonly #listeners = new Set<(event: TaskStoreEvent) => void>();

  readonly #leaseMs: number;
  #timer?: NodeJS.Timeout;
  #connectedSince?: number;
  readonly #removers: Array<() => void> = [];

  /** `now` is the clock (ms since the epoch); tests may pass a fake one. */
  constructor(
    private readonly link: RedisLink,
    prefix: string,
    private readonly logger: Logger,
    private readonly lease: TaskLeaseOptions = { replicaId: 'replica', heartbeatMs: 5_000 },
    private readonly now: () => number = Date.now,
  ) {
    this.#prefix = prefix;
    this.#channel = `${prefix}:tasks`;
    this.#leaseMs = lease.heartbeatMs * 3;
  }

  /** Subscribes to changes made by other replicas, takes the lease and starts the sweep; resolves at once while Redis is down. */
  async open(): Promise<void> {
    await this.link.subscribe(this.#channel, (text) => this.#received(text));
    if (this.link.isReady) this.#connectedSince = Date.now();
    this.#removers.push(
      this.link.onReady(() => {
        this.#connectedSince ??= Date.now();
        void this.#beat();
      }),
      this.link.onLost(() => (this.#connectedSince = undefined)),
    );
    await this.#beat();
    this.#timer = setInterval(() => void this.#beat(), this.lease.heartbeatMs);
    this.#timer.unref();
  }

  async create(task: NewTaskRecord): Promise<TaskRecord> {
    const record: TaskRecord = Object.freeze({
      ...(JSON.parse(JSON.stringify(task)) as NewTaskRecord),
      lastUpdatedAt: task.createdAt,
      version: 1,
    });
    const event: TaskStoreEvent = { type: 'changed', task: record };
    const created = await this.#eval(
      CREATE_TASK_SCRIPT,
      record.taskId,
      record.owner,
      [
        JSON.stringify(record),
        record.taskId,
        String(record.createdAt),
        record.expiresAt === null ? '' : String(record.expiresAt),
        this.#expiryMember(record),
        this.#message([event]),
        this.#instance,
        this.lease.replicaId,
      ],
      [this.#runnerKey(this.#instance), this.#runnersKey()],
    );
    if (Number(created) !== 1) throw new TaskError('SERVER_STATE', `Task id ${task.taskId} already exists.`);
    this.#emit([event]);
    return record;
  }

  async get(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    const task = await this.#read(taskId);
    return task && task.owner === owner ? task : undefined;
  }

  update(taskId: string, patch: TaskStatusUpdate): Promise<TaskRecord | undefined> {
    return this.#change(taskId, undefined, (store) => store.update(taskId, patch));
  }

  complete(taskId: string, outcome: TaskOutcome): Promise<TaskRecord | undefined> {
    return this.#change(taskId, undefined, (store) => store.complete(taskId, outcome));
  }

  cancel(taskId: string, owner: string, statusMessage?: string): Promise<TaskRecord | undefined> {
    return this.#change(taskId, owner, (store) => store.cancel(taskId, owner, statusMessage));
  }

  answerInput(taskId: string, owner: string, responses: Record<string, unknown>): Promise<TaskRecord | undefined> {
    return this.#change(taskId, owner, (store) => store.answerInput(taskId, owner, responses));
  }

  async list(owner: string, page: { cursor?: string; limit: number }): Promise<TaskPage> {
    const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    const ids = await this.#run((client) => client.zRange(this.#ownerKey(owner), 0, -1));
    const texts = ids.length > 0 ? await this.#run((client) => client.mGet(ids.map((id) => this.#taskKey(id)))) : [];
    const now = this.now();
    const live = texts
      .map((text) => (text ? (JSON.parse(text) as TaskRecord) : undefined))
      .filter((task): task is TaskRecord => !!task && task.owner === owner && isLive(task, now))
      .filter(
        (task) =>
          !after ||
          task.createdAt > after.createdAt ||
          (task.createdAt === after.createdAt && task.taskId > after.taskId),
      );
    const limit = Math.max(1, Math.floor(page.limit));
    const tasks = live.slice(0, limit).map((task) => Object.freeze(task));
    const last = tasks.at(-1);
    return live.length > limit && last ? { tasks, nextCursor: encodeCursor(last.createdAt, last.taskId) } : { tasks };
  }

  async expire(now: number): Promise<string[]> {
    const members = await this.#run((client) =>
      client.zRangeByScore(`${this.#prefix}:tasks:expiry`, '-inf', String(now)),
    );
    const gone: string[] = [];
    for (const member of members) {
      const [taskId, owner] = JSON.parse(member) as [string, string];
      const event: TaskStoreEvent = { type: 'expired', taskId, owner };
      const expired = await this.#eval(EXPIRE_TASK_SCRIPT, taskId, owner, [member, taskId, this.#message([event])]);
      if (Number(expired) !== 1) continue;
      gone.push(taskId);
      this.#emit([event]);
    }
    return gone;
  }

  subscribe(listener: (event: TaskStoreEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops delivering events and renewing the lease (its tasks are left to the sweep of the others). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    for (const remove of this.#removers.splice(0)) remove();
    this.#listeners.clear();
  }

  /** Renews this process's lease, forgets its ended tasks, and fails the tasks of dead processes. */
  async #beat(): Promise<void> {
    if (!this.link.isReady) return;
    const client = this.link.command;
    try {
      await client.set(this.#leaseKey(this.#instance), this.lease.replicaId, { PX: this.#leaseMs });
      await this.#forgetEnded();
      const since = this.#connectedSince;
      if (since === undefined || Date.now() - since < this.#leaseMs) return;
      for (const [runner, replicaId] of Object.entries(await client.hGetAll(this.#runnersKey()))) {
        if (runner === this.#instance || (await client.exists(this.#leaseKey(runner)))) continue;
        await this.#failRunner(runner, replicaId);
      }
    } catch (error) {
      this.logger.debug({ err: error }, 'task lease heartbeat failed; retried');
    }
  }

  /** Drops ended (terminal or gone) tasks from this process's runner set. */
  async #forgetEnded(): Promise<void> {
    const ids = await this.link.command.sMembers(this.#runnerKey(this.#instance));
    if (ids.length === 0) return;
    const texts = await this.link.command.mGet(ids.map((id) => this.#taskKey(id)));
    const ended = ids.filter((_, i) => {
      const text = texts[i];
      return !text || isTerminalTaskStatus((JSON.parse(text) as TaskRecord).status);
    });
    if (ended.length > 0) await this.link.command.sRem(this.#runnerKey(this.#instance), ended);
  }

  /** Fails every unfinished task of a runner whose lease expired, then forgets the runner. */
  async #failRunner(runner: string, replicaId: string): Promise<void> {
    const ids = await this.link.command.sMembers(this.#runnerKey(runner));
    for (const taskId of ids) {
      const error = ownerGoneError(replicaId, this.#leaseMs);
      await this.#change(taskId, undefined, async (store) => {
        await store.update(taskId, { statusMessage: error.message });
        return store.complete(taskId, { status: 'failed', error });
      });
    }
    await this.link.command.multi().del(this.#runnerKey(runner)).hDel(this.#runnersKey(), runner).exec();
    this.logger.warn(
      { runner, replicaId, tasks: ids.length },
      'A replica running tasks stopped renewing its lease: its unfinished tasks are failed.',
    );
  }

  /**
   * Reads the task, runs the reference transition on it, and writes the result if the stored
   * version did not move meanwhile (else retries). Unchanged (terminal) tasks are not written.
   */
  async #change(
    taskId: string,
    owner: string | undefined,
    transition: (store: MemoryTaskStore) => Promise<TaskRecord | undefined>,
  ): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const current = await this.#read(taskId);
      if (!current || (owner !== undefined && current.owner !== owner)) return undefined;
      const now = Math.max(this.now(), current.lastUpdatedAt);
      const scratch = new MemoryTaskStore(() => now);
      await scratch.create(current); // keeps every field of the record
      const events: TaskStoreEvent[] = [];
      scratch.subscribe((event) => events.push(event));
      const changed = await transition(scratch);
      if (!changed) return undefined;
      if (events.length === 0) return current; // terminal: nothing changes
      const next: TaskRecord = Object.freeze({ ...changed, version: current.version + 1, lastUpdatedAt: now });
      const final = events.map((event) => (event.type === 'expired' ? event : { ...event, task: next }));
      const outcome = await this.#eval(CAS_TASK_SCRIPT, taskId, next.owner, [
        String(current.version),
        JSON.stringify(next),
        next.expiresAt === null ? '' : String(next.expiresAt),
        this.#expiryMember(next),
        this.#message(final),
      ]);
      if (outcome === 'gone') return undefined;
      if (outcome === 'ok') {
        this.#emit(final);
        return next;
      }
    }
    throw new TaskError('SERVER_STATE', `Task ${taskId} kept changing under concurrent writers; try again.`);
  }

  async #read(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.#run((client) => client.get(this.#taskKey(taskId)));
    if (!text) return undefined;
    const task = JSON.parse(text) as TaskRecord;
    return isLive(task, this.now()) ? Object.freeze(task) : undefined;
  }

  #eval(script: string, taskId: string, owner: string, args: string[], more: string[] = []): Promise<unknown> {
    const keys = [this.#taskKey(taskId), this.#ownerKey(owner), `${this.#prefix}:tasks:expiry`, this.#channel, ...more];
    return this.#run((client) => client.eval(script, { keys, arguments: args }));
  }

  async #run<T>(command: (client: RedisLink['command']) => Promise<T>): Promise<T> {
    if (!this.link.isReady) {
      throw new ClusterUnavailableError(
        `Redis at ${this.link.url} is unreachable: tasks are not available.`,
        this.link.url,
      );
    }
    try {
      return await command(this.link.command);
    } catch (error) {
      if (error instanceof TaskError) throw error;
      throw new ClusterUnavailableError(`The task store failed: ${(error as Error).message}`, this.link.url, {
        cause: error,
      });
    }
  }

  #leaseKey(instance: string): string {
    return `${this.#prefix}:lease:${instance}`;
  }

  #runnerKey(instance: string): string {
    return `${this.#prefix}:tasks:runner:${instance}`;
  }

  #runnersKey(): string {
    return `${this.#prefix}:tasks:runners`;
  }

  #taskKey(taskId: string): string {
    return `${this.#prefix}:task:${taskId}`;
  }

  #ownerKey(owner: string): string {
    return `${this.#prefix}:tasks:owner:${owner}`;
  }

  #expiryMember(task: TaskRecord): string {
    return JSON.stringify([task.taskId, task.owner]);
  }

  #message(events: TaskStoreEvent[]): string {
    return JSON.stringify({ by: this.#instance, events });
  }

  #emit(events: readonly TaskStoreEvent[]): void {
    for (const event of events) {
      for (const listener of [...this.#listeners]) {
        try {
          listener(event);
        } catch (error) {
          this.logger.error({ err: error }, 'a task store listener threw');
        }
      }
    }
  }

  #received(text: string): void {
    try {
      const message = JSON.parse(text) as { by?: string; events?: TaskStoreEvent[] };
      if (message.by === this.#instance || !Array.isArray(message.events)) return;
      this.#emit(
        message.events.map((event) =>
          event.type === 'expired' ? event : { ...event, task: Object.freeze(event.task) },
        ),
      );
    } catch (error) {
      this.logger.debug({ err: error }, 'ignored a malformed task message');
    }
  }
}
