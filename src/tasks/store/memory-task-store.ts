import { base64UrlToText, textToBase64Url } from '../../bytes.js';
import { TaskError } from '../../errors.js';
import {
  isTerminalTaskStatus,
  type NewTaskRecord,
  type TaskOutcome,
  type TaskPage,
  type TaskRecord,
  type TaskStatusUpdate,
  type TaskStore,
  type TaskStoreEvent,
} from './task-store.js';

/**
 * The default {@link TaskStore}: every task in this process's memory, lost on restart.
 * Values are copied as JSON on the way in (so what a tool returned behaves exactly as it would
 * through a shared store), and records are frozen so that callers never mutate the store.
 * Listeners registered with `subscribe` are called synchronously after each change.
 *
 * Sizes: a retained finished task costs its JSON result plus ~0.5 KB (see
 * `bench/tasks.mjs`). Expired records vanish from reads at once and are deleted by `expire()`,
 * which the server calls on a timer.
 */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  /** Per owner, its task ids (so listing one owner never scans the others). */
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly listeners = new Set<(event: TaskStoreEvent) => void>();

  /** `now` is the clock (ms since the epoch); tests pass a fake one. */
  constructor(private readonly now: () => number = Date.now) {}

  create(task: NewTaskRecord): Promise<TaskRecord> {
    if (this.tasks.has(task.taskId)) {
      return Promise.reject(new TaskError('SERVER_STATE', `Task id ${task.taskId} already exists.`));
    }
    // Only plain fields here (strings, numbers, the small `request` object): a shallow copy keeps
    // the caller from mutating the store without a JSON round trip per task.
    const record = freeze({ ...task, request: { ...task.request }, lastUpdatedAt: task.createdAt, version: 1 });
    this.tasks.set(record.taskId, record);
    let ids = this.byOwner.get(record.owner);
    if (!ids) this.byOwner.set(record.owner, (ids = new Set()));
    ids.add(record.taskId);
    this.emit({ type: 'changed', task: record });
    return Promise.resolve(record);
  }

  get(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    return Promise.resolve(this.live(taskId, owner));
  }

  update(taskId: string, patch: TaskStatusUpdate): Promise<TaskRecord | undefined> {
    const current = this.live(taskId);
    if (!current || isTerminalTaskStatus(current.status)) return Promise.resolve(current);
    const next: Mutable<TaskRecord> = { ...current };
    if (patch.status) next.status = patch.status;
    if (patch.statusMessage === null) delete next.statusMessage;
    else if (patch.statusMessage !== undefined) next.statusMessage = patch.statusMessage;
    if (next.status === 'input_required') {
      if (patch.inputRequests) next.inputRequests = jsonCopy(patch.inputRequests);
    } else delete next.inputRequests;
    if (patch.takeInputResponses) delete next.inputResponses;
    if (patch.expiresAt !== undefined) next.expiresAt = patch.expiresAt;
    return Promise.resolve(this.replace(current, next));
  }

  complete(taskId: string, outcome: TaskOutcome): Promise<TaskRecord | undefined> {
    const current = this.live(taskId);
    if (!current || isTerminalTaskStatus(current.status)) return Promise.resolve(current);
    const next: Mutable<TaskRecord> = { ...current, status: outcome.status };
    delete next.inputRequests;
    delete next.inputResponses;
    if (outcome.status === 'completed') next.result = jsonCopy(outcome.result);
    else next.error = jsonCopy(outcome.error);
    if (outcome.expiresAt !== undefined) next.expiresAt = outcome.expiresAt;
    return Promise.resolve(this.replace(current, next));
  }

  list(owner: string, page: { cursor?: string; limit: number }): Promise<TaskPage> {
    let after: { createdAt: number; taskId: string } | undefined;
    try {
      after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const live: TaskRecord[] = [];
    for (const id of this.byOwner.get(owner) ?? []) {
      const task = this.live(id, owner);
      if (task && (!after || compareKey(task.createdAt, id, after.createdAt, after.taskId) > 0)) live.push(task);
    }
    live.sort((a, b) => compareKey(a.createdAt, a.taskId, b.createdAt, b.taskId));
    const limit = Math.max(1, Math.floor(page.limit));
    const tasks = live.slice(0, limit);
    const last = tasks.at(-1);
    return Promise.resolve(
      live.length > limit && last ? { tasks, nextCursor: encodeCursor(last.createdAt, last.taskId) } : { tasks },
    );
  }

  cancel(taskId: string, owner: string, statusMessage?: string): Promise<TaskRecord | undefined> {
    const current = this.live(taskId, owner);
    if (!current || isTerminalTaskStatus(current.status)) return Promise.resolve(current);
    const next: Mutable<TaskRecord> = { ...current, status: 'cancelled' };
    delete next.inputRequests;
    delete next.inputResponses;
    if (statusMessage !== undefined) next.statusMessage = statusMessage;
    return Promise.resolve(this.replace(current, next));
  }

  answerInput(taskId: string, owner: string, responses: Record<string, unknown>): Promise<TaskRecord | undefined> {
    const current = this.live(taskId, owner);
    if (!current || isTerminalTaskStatus(current.status)) return Promise.resolve(current);
    const copy = jsonCopy(responses);
    const next: Mutable<TaskRecord> = { ...current, inputResponses: { ...current.inputResponses, ...copy } };
    if (current.inputRequests) {
      const remaining = Object.fromEntries(Object.entries(current.inputRequests).filter(([key]) => !(key in copy)));
      if (Object.keys(remaining).length > 0) next.inputRequests = remaining;
      else {
        delete next.inputRequests;
        next.status = 'working';
      }
    }
    const record = this.replace(current, next);
    this.emit({ type: 'input', task: record, responses: copy });
    return Promise.resolve(record);
  }

  expire(now: number): Promise<string[]> {
    const gone: string[] = [];
    for (const task of this.tasks.values()) {
      if (task.expiresAt !== null && task.expiresAt <= now) gone.push(task.taskId);
    }
    for (const taskId of gone) {
      const task = this.tasks.get(taskId)!;
      this.tasks.delete(taskId);
      const ids = this.byOwner.get(task.owner);
      ids?.delete(taskId);
      if (ids?.size === 0) this.byOwner.delete(task.owner);
      this.emit({ type: 'expired', taskId, owner: task.owner });
    }
    return Promise.resolve(gone);
  }

  subscribe(listener: (event: TaskStoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }

  /** Number of stored records (expired ones not yet deleted included); for tests and benchmarks. */
  get size(): number {
    return this.tasks.size;
  }

  private live(taskId: string, owner?: string): TaskRecord | undefined {
    const task = this.tasks.get(taskId);
    if (!task || (owner !== undefined && task.owner !== owner)) return undefined;
    if (task.expiresAt !== null && task.expiresAt <= this.now()) return undefined;
    return task;
  }

  private replace(current: TaskRecord, next: Mutable<TaskRecord>, notify = true): TaskRecord {
    next.version = current.version + 1;
    next.lastUpdatedAt = Math.max(this.now(), current.lastUpdatedAt);
    const record = freeze(next);
    this.tasks.set(record.taskId, record);
    if (notify) this.emit({ type: 'changed', task: record });
    return record;
  }

  private emit(event: TaskStoreEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not break the store or the other listeners.
      }
    }
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function freeze<T extends object>(value: T): T {
  return Object.freeze(value);
}

function compareKey(aTime: number, aId: string, bTime: number, bId: string): number {
  if (aTime !== bTime) return aTime - bTime;
  return aId < bId ? -1 : aId > bId ? 1 : 0;
}

/** Opaque cursor: base64url of `[createdAt, taskId]` of the last task on the previous page. */
export function encodeCursor(createdAt: number, taskId: string): string {
  return textToBase64Url(JSON.stringify([createdAt, taskId]));
}

/**
 * Reads a cursor made by {@link encodeCursor}.
 * @throws TaskError (code `INVALID_ARGUMENTS`) for anything else.
 */
export function decodeCursor(cursor: string): { createdAt: number; taskId: string } {
  try {
    const value: unknown = JSON.parse(base64UrlToText(cursor));
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return { createdAt: value[0], taskId: value[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw new TaskError('INVALID_ARGUMENTS', 'Invalid cursor: pass back a nextCursor value from an earlier tasks/list.');
}
