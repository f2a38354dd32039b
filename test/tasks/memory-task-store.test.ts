import { describe, expect, it } from 'vitest';
import { TaskError } from '../../src/errors.js';
import { MemoryTaskStore } from '../../src/tasks/store/memory-task-store.js';
import type { NewTaskRecord, TaskStoreEvent } from '../../src/tasks/store/task-store.js';

function newTask(taskId: string, owner = 'session:a', createdAt = 1000, ttlMs: number | null = 60_000): NewTaskRecord {
  return {
    taskId,
    owner,
    status: 'working',
    createdAt,
    ttlMs,
    expiresAt: ttlMs === null ? null : createdAt + ttlMs,
    request: { method: 'tools/call', name: 'slow' },
    wire: 'legacy',
  };
}

describe('MemoryTaskStore', () => {
  it('binds a task to its owner: another owner sees nothing and cannot cancel or answer', async () => {
    let now = 1000;
    const store = new MemoryTaskStore(() => now);
    await store.create(newTask('t1'));
    expect((await store.get('t1', 'session:a'))?.status).toBe('working');
    expect(await store.get('t1', 'session:b')).toBeUndefined();
    expect(await store.cancel('t1', 'session:b')).toBeUndefined();
    expect(await store.answerInput('t1', 'session:b', { x: 1 })).toBeUndefined();
    expect((await store.list('session:b', { limit: 10 })).tasks).toEqual([]);
    now = 2000;
    expect((await store.get('t1', 'session:a'))?.status).toBe('working');
  });

  it('keeps terminal states final and copies results as JSON', async () => {
    const store = new MemoryTaskStore(() => 5000);
    await store.create(newTask('t1'));
    const result = { content: [{ type: 'text', text: 'hi' }], when: new Date(0) };
    const done = await store.complete('t1', { status: 'completed', result });
    expect(done?.status).toBe('completed');
    expect(done?.result).toEqual({ content: [{ type: 'text', text: 'hi' }], when: '1970-01-01T00:00:00.000Z' });
    expect(done?.lastUpdatedAt).toBe(5000);
    expect((await store.cancel('t1', 'session:a'))?.status).toBe('completed');
    expect((await store.update('t1', { status: 'working' }))?.status).toBe('completed');
    expect((await store.complete('t1', { status: 'failed', error: { code: 1, message: 'x' } }))?.status).toBe(
      'completed',
    );
    expect(Object.isFrozen(done)).toBe(true);
  });

  it('moves through input_required and hands answers to subscribers', async () => {
    const store = new MemoryTaskStore(() => 1000);
    const events: TaskStoreEvent[] = [];
    store.subscribe((event) => events.push(event));
    await store.create(newTask('t1'));
    const asked = await store.update('t1', {
      status: 'input_required',
      inputRequests: { q: { method: 'elicitation/create', params: {} } },
    });
    expect(asked?.inputRequests).toEqual({ q: { method: 'elicitation/create', params: {} } });
    const answered = await store.answerInput('t1', 'session:a', { q: { action: 'accept' } });
    expect(answered?.inputResponses).toEqual({ q: { action: 'accept' } });
    expect(answered?.status).toBe('working');
    expect(answered?.inputRequests).toBeUndefined();
    const resumed = await store.update('t1', { status: 'working', takeInputResponses: true });
    expect(resumed?.inputRequests).toBeUndefined();
    expect(resumed?.inputResponses).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(['changed', 'changed', 'changed', 'input', 'changed']);
  });

  it('hides expired tasks at once and deletes them on expire()', async () => {
    let now = 1000;
    const store = new MemoryTaskStore(() => now);
    await store.create(newTask('t1', 'session:a', 1000, 500));
    await store.create(newTask('t2', 'session:a', 1000, null));
    now = 1500;
    expect(await store.get('t1', 'session:a')).toBeUndefined();
    expect(await store.expire(now)).toEqual(['t1']);
    expect(store.size).toBe(1);
    expect((await store.get('t2', 'session:a'))?.taskId).toBe('t2');
  });

  it('pages 1,000 tasks in creation order with opaque cursors, and rejects a forged cursor', async () => {
    const store = new MemoryTaskStore(() => 1000);
    for (let i = 0; i < 1000; i++) await store.create(newTask(`id-${String(i).padStart(4, '0')}`, 'o', 1000 + (i % 7)));
    await store.create(newTask('other', 'p'));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await store.list('o', { cursor, limit: 100 });
      seen.push(...page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    expect(pages).toBe(10);
    expect(new Set(seen).size).toBe(1000);
    expect(seen).not.toContain('other');
    await expect(store.list('o', { cursor: 'nope', limit: 10 })).rejects.toBeInstanceOf(TaskError);
  });

  it('refuses a duplicate id', async () => {
    const store = new MemoryTaskStore();
    await store.create(newTask('t1'));
    await expect(store.create(newTask('t1'))).rejects.toMatchObject({ code: 'SERVER_STATE' });
  });
});
