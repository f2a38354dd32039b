// TaskManager over a shared store: two managers stand for two processes sharing one TaskStore;
// a cancel or an input answer made through one reaches the work running in the other, with a
// store that pushes (subscribe) and with one that cannot (the manager polls).
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCallAbortedError } from '../../src/errors.js';
import { MemoryTaskStore } from '../../src/tasks/store/memory-task-store.js';
import { TaskManager } from '../../src/tasks/engine/task-manager.js';
import type { TaskStore } from '../../src/tasks/store/task-store.js';

/** The same store without `subscribe`: like a shared store that cannot push. */
function withoutPush(store: MemoryTaskStore): TaskStore {
  return {
    create: (t) => store.create(t),
    get: (id, owner) => store.get(id, owner),
    update: (id, patch) => store.update(id, patch),
    complete: (id, outcome) => store.complete(id, outcome),
    list: (owner, page) => store.list(owner, page),
    cancel: (id, owner, message) => store.cancel(id, owner, message),
    answerInput: (id, owner, responses) => store.answerInput(id, owner, responses),
    expire: (now) => store.expire(now),
  };
}

const managers: TaskManager[] = [];
afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.stop();
});

function pair(push: boolean) {
  const shared = new MemoryTaskStore();
  const store = push ? shared : withoutPush(shared);
  const policy = { sweepIntervalMs: 20 };
  const a = new TaskManager(store, policy);
  const b = new TaskManager(store, policy);
  managers.push(a, b);
  return { a, b };
}

describe.each([true, false])('TaskManager with a shared store (push: %s)', (push) => {
  it('aborts work running in one process when another cancels it', async () => {
    const { a, b } = pair(push);
    const { task, running } = await a.create({ owner: 'client:x', toolName: 't', wire: 'extension' });
    const aborted = new Promise<unknown>((resolve) =>
      running.signal.addEventListener('abort', () => resolve(running.signal.reason)),
    );
    a.run(running, () => new Promise(() => {}));
    await expect(b.cancel(task.taskId, 'client:y')).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    expect((await b.cancel(task.taskId, 'client:x')).status).toBe('cancelled');
    const reason = await aborted;
    expect(reason).toBeInstanceOf(ToolCallAbortedError);
    expect((reason as ToolCallAbortedError).reason).toBe('cancelled');
    expect((await a.get(task.taskId, 'client:x')).status).toBe('cancelled');
  });

  it('delivers input answered through another process and completes', async () => {
    const { a, b } = pair(push);
    const { task, running } = await a.create({ owner: 'client:x', toolName: 't', wire: 'extension' });
    a.run(running, async () => {
      const answer = await running.requestInput('q', { method: 'elicitation/create', params: { message: 'ok?' } });
      return { status: 'completed', result: { content: [], answer } };
    });
    for (let i = 0; i < 100 && (await b.get(task.taskId, 'client:x')).status !== 'input_required'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await b.get(task.taskId, 'client:x')).inputRequests).toEqual({
      q: { method: 'elicitation/create', params: { message: 'ok?' } },
    });
    await b.answerInput(task.taskId, 'client:x', { q: { action: 'accept' } });
    let done = await b.get(task.taskId, 'client:x');
    for (let i = 0; i < 100 && done.status !== 'completed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      done = await b.get(task.taskId, 'client:x');
    }
    expect(done.result).toEqual({ content: [], answer: { action: 'accept' } });
  });
});

describe('TaskManager limits', () => {
  it('refuses beyond the per-principal and overall limits, and frees a slot when a task ends', async () => {
    const manager = new TaskManager(new MemoryTaskStore(), { maxTasksPerPrincipal: 2, maxTasks: 3 });
    managers.push(manager);
    const start = (owner: string) => manager.create({ owner, toolName: 't', wire: 'legacy' });
    const first = await start('p');
    await start('p');
    await expect(start('p')).rejects.toMatchObject({ code: 'TASK_LIMIT' });
    await start('q');
    await expect(start('r')).rejects.toMatchObject({ code: 'TASK_LIMIT', message: /maximum of 3 tasks/ });
    manager.run(first.running, async () => ({ status: 'completed', result: { content: [] } }));
    for (let i = 0; i < 100 && manager.runningCount > 2; i++) await new Promise((r) => setTimeout(r, 5));
    expect((await start('p')).task.status).toBe('working');
  });
});
