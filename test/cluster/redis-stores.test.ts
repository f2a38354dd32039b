// @needs redis-server
// The Redis-backed cluster parts against a real redis-server: tool state shared and pushed,
// merges after an outage (per tool name, the later toggle wins; no change lost), the change bus, the shared
// requestState key, the session listing with expiry, and start-up without Redis.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type RedisCluster } from '../../src/cluster/create-cluster.js';
import { ClusterUnavailableError } from '../../src/errors.js';
import type { ClusterChange } from '../../src/state/change-bus.js';
import type { ToolStateSnapshot } from '../../src/state/tool-state-store.js';
import type { TaskStoreEvent } from '../../src/tasks/store/task-store.js';
import { freePort, RedisServer } from '../support/services.js';

const noop = () => {};
const noisy = process.env.CLUSTER_DEBUG ? (...a: unknown[]) => console.error(...a) : noop;
const silent = { debug: noisy, info: noisy, warn: noisy, error: noisy, child: () => silent } as never;

async function until(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let redis: RedisServer;
let prefixes = 0;
const open: RedisCluster[] = [];

async function join(prefix: string, extra: Partial<Parameters<typeof createCluster>[0]> = {}) {
  const cluster = await createCluster({ redis: redis.url, prefix, logger: silent, heartbeatMs: 100, ...extra });
  open.push(cluster);
  return cluster;
}

beforeAll(async () => {
  redis = await RedisServer.start();
});

afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((cluster) => cluster.close()));
});

afterAll(async () => {
  await redis?.stop();
});

/** Two replicas of a fresh cluster, each with its tool state loaded. */
async function twoLoaded() {
  const prefix = `t${++prefixes}`;
  const [a, b] = [await join(prefix), await join(prefix)];
  // As a server does: load, then save its configured defaults when nothing was stored.
  for (const replica of [a, b]) if (!(await replica.toolState.load())) await replica.toolState.save([]);
  return { prefix, a, b };
}

describe('RedisToolStateStore', () => {
  it('shares the disabled set: saves are pushed to the other replicas only, a later replica loads it', async () => {
    const prefix = `t${++prefixes}`;
    const [a, b] = [await join(prefix), await join(prefix)];
    expect(await a.toolState.load()).toBeUndefined();
    expect(await b.toolState.load()).toBeUndefined();
    await a.toolState.save([]); // what a server does then: store its defaults (here: none)
    await b.toolState.save([]);
    const seenA: ToolStateSnapshot[] = [];
    const seenB: ToolStateSnapshot[] = [];
    a.toolState.subscribe((s) => seenA.push(s));
    b.toolState.subscribe((s) => seenB.push(s));

    const saved = await a.toolState.save(['zeta', 'alpha', 'alpha']);
    expect(saved.disabled).toEqual(['alpha', 'zeta']);
    await until(() => seenB.length === 1, 'the push to B');
    expect(seenB[0]).toMatchObject({ disabled: ['alpha', 'zeta'], version: saved.version });
    const second = await b.toolState.save([]);
    expect(second.version).toBeGreaterThan(saved.version);
    await until(() => seenA.length === 1, 'the push to A');
    expect(seenA[0]?.disabled).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seenB).toHaveLength(1); // B never hears its own save

    const c = await join(prefix);
    expect(await c.toolState.load()).toMatchObject({ disabled: [], version: second.version });
  });

  it('Redis restarted empty while a replica toggled: the newer version wins and reaches everyone', async () => {
    const { prefix, a, b } = await twoLoaded();
    const base = await a.toolState.save(['one']);
    const seenB: ToolStateSnapshot[] = [];
    b.toolState.subscribe((s) => seenB.push(s));
    await until(async () => (await b.toolState.load())?.version === base.version, 'B to know the base');

    await redis.stop();
    await until(() => !a.link.isReady && !b.link.isReady, 'both to see Redis gone');
    const offline = await a.toolState.save(['one', 'two']); // kept locally, no error, no wait
    expect(offline.version).toBe(base.version + 1);
    await redis.restart();
    await until(() => seenB.some((s) => s.disabled.join() === 'one,two'), 'B to get the reconciled set', 10_000);
    const c = await join(prefix);
    expect((await c.toolState.load())?.disabled).toEqual(['one', 'two']);
  });

  it('two replicas toggled during the outage: both changes survive; the same tool ends as its later toggle', async () => {
    const { prefix, a, b } = await twoLoaded();
    await a.toolState.save(['x']);
    await until(async () => (await b.toolState.load())?.disabled.join() === 'x', 'B to know x');
    const views = { a: ['x'] as readonly string[], b: ['x'] as readonly string[] };
    a.toolState.subscribe((s) => (views.a = s.disabled));
    b.toolState.subscribe((s) => (views.b = s.disabled));

    await redis.stop();
    await until(() => !a.link.isReady && !b.link.isReady, 'both to see Redis gone');
    views.a = (await a.toolState.save(['a-only', 'x'])).disabled;
    expect(a.toolState.unconfirmedChanges).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    views.b = (await b.toolState.save(['b-only'])).disabled; // also enables x, later than A's save
    await new Promise((resolve) => setTimeout(resolve, 5));
    views.a = (await a.toolState.save(['a-only'])).disabled; // A enables x later still
    await redis.restart(); // empty: both replicas merge what they know
    await until(
      () => views.a.join() === 'a-only,b-only' && views.b.join() === 'a-only,b-only',
      'A and B to merge',
      10_000,
    );
    expect(a.toolState.unconfirmedChanges + b.toolState.unconfirmedChanges).toBe(0);
    const c = await join(prefix);
    expect((await c.toolState.load())?.disabled).toEqual(['a-only', 'b-only']);
  });

  it('toggles of different tools on two replicas at the same moment both survive (Redis up)', async () => {
    const { a, b } = await twoLoaded();
    const views = { a: [] as readonly string[], b: [] as readonly string[] };
    a.toolState.subscribe((s) => (views.a = s.disabled));
    b.toolState.subscribe((s) => (views.b = s.disabled));
    // "__proto__" is a valid MCP tool name: it must be an ordinary key of the stored intents.
    const [sa, sb] = await Promise.all([a.toolState.save(['one', '__proto__']), b.toolState.save(['two'])]);
    // A save answers the merged set; the server applies it (and later pushes) in one setDisabled.
    if (sa.version >= sb.version) views.a = sa.disabled;
    else views.b = sb.disabled;
    const both = (names: readonly string[]) => names.join() === '__proto__,one,two';
    await until(() => both(views.a) && both(views.b), 'both to hold both', 5_000);
  });
});

describe('RedisTaskStore', () => {
  const newTask = (taskId: string, owner: string, createdAt: number, expiresAt: number | null = null) => ({
    taskId,
    owner,
    status: 'working' as const,
    createdAt,
    ttlMs: expiresAt === null ? null : expiresAt - createdAt,
    expiresAt,
    request: { method: 'tools/call' as const, name: 'slow' },
    wire: 'extension' as const,
  });

  it('a task created on A is read, listed, answered and cancelled on B; A hears the cancel', async () => {
    const prefix = `t${++prefixes}`;
    const [a, b] = [await join(prefix), await join(prefix)];
    const atA: TaskStoreEvent[] = [];
    a.tasks.subscribe((event) => atA.push(event));
    const now = Date.now();
    await a.tasks.create(newTask('t1', 'client:alice', now));
    await a.tasks.create(newTask('t2', 'client:alice', now + 1));
    await a.tasks.create(newTask('t3', 'client:bob', now));
    await expect(b.tasks.create(newTask('t1', 'client:alice', now))).rejects.toThrow(/already exists/);
    expect(await b.tasks.get('t1', 'client:bob')).toBeUndefined();
    expect((await b.tasks.get('t1', 'client:alice'))?.status).toBe('working');

    const first = await b.tasks.list('client:alice', { limit: 1 });
    expect(first.tasks.map((t) => t.taskId)).toEqual(['t1']);
    const second = await b.tasks.list('client:alice', { limit: 1, cursor: first.nextCursor });
    expect(second).toEqual({ tasks: [expect.objectContaining({ taskId: 't2' })] });

    await a.tasks.update('t2', { status: 'input_required', inputRequests: { who: { method: 'elicitation/create' } } });
    const answered = await b.tasks.answerInput('t2', 'client:alice', { who: { action: 'accept' } });
    expect(answered).toMatchObject({ status: 'working', inputResponses: { who: { action: 'accept' } } });

    const cancelled = await b.tasks.cancel('t1', 'client:alice', 'stop');
    expect(cancelled).toMatchObject({ status: 'cancelled', statusMessage: 'stop', version: 2 });
    expect(await b.tasks.cancel('t1', 'client:alice')).toMatchObject({ status: 'cancelled', version: 2 });
    expect(await b.tasks.complete('t1', { status: 'completed', result: {} })).toMatchObject({ status: 'cancelled' });
    await until(
      () => atA.some((e) => e.type === 'changed' && e.task.taskId === 't1' && e.task.status === 'cancelled'),
      'A to hear the cancel',
    );
    expect(atA.some((e) => e.type === 'input' && e.task.taskId === 't2')).toBe(true);
  });

  it('expires a task once, whichever replica sweeps', async () => {
    const prefix = `t${++prefixes}`;
    const [a, b] = [await join(prefix), await join(prefix)];
    const now = Date.now();
    await a.tasks.create(newTask('old', 'client:alice', now - 10_000, now + 60_000));
    await a.tasks.update('old', { expiresAt: now - 1 });
    expect(await b.tasks.get('old', 'client:alice')).toBeUndefined();
    const [fromA, fromB] = await Promise.all([a.tasks.expire(Date.now()), b.tasks.expire(Date.now())]);
    expect([...fromA, ...fromB]).toEqual(['old']);
    expect((await a.tasks.list('client:alice', { limit: 10 })).tasks).toEqual([]);
  });
});

describe('createCluster', () => {
  it('shares one requestState key and carries changes between replicas, not back to the sender', async () => {
    const prefix = `t${++prefixes}`;
    const [a, b] = [await join(prefix), await join(prefix)];
    expect(Buffer.from(a.requestStateKey).equals(Buffer.from(b.requestStateKey))).toBe(true);
    expect(a.requestStateKey.length).toBeGreaterThanOrEqual(32);
    const atA: ClusterChange[] = [];
    const atB: ClusterChange[] = [];
    a.changes.subscribe((c) => atA.push(c));
    b.changes.subscribe((c) => atB.push(c));
    a.changes.publish({ type: 'resourceUpdated', uri: 'memo://x' });
    a.changes.publish({ type: 'promptsChanged' });
    await until(() => atB.length === 2, 'two changes at B');
    expect(atB).toEqual([{ type: 'resourceUpdated', uri: 'memo://x' }, { type: 'promptsChanged' }]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(atA).toEqual([]);
  });

  it('lists sessions cluster-wide; a replica that stops heartbeating drops out', async () => {
    const prefix = `t${++prefixes}`;
    const [a, b] = [await join(prefix, { replicaId: 'r-a' }), await join(prefix, { replicaId: 'r-b' })];
    a.sessions.add('s1', Date.now() - 1_000);
    b.sessions.add('s2', Date.now());
    await until(async () => (await a.sessions.list()).length === 2, 'two sessions listed');
    const listed = await b.sessions.list();
    expect(listed.map((s) => [s.sessionId, s.replicaId])).toEqual([
      ['s1', 'r-a'],
      ['s2', 'r-b'],
    ]);
    expect(listed[0]!.ageMs).toBeGreaterThanOrEqual(1_000);
    b.sessions.remove('s2');
    await until(async () => (await a.sessions.list()).length === 1, 'the removed session gone');
    // A crash: the link dies without leaving the cluster; its sessions expire (3 x 100 ms heartbeat).
    b.sessions.add('s3', Date.now());
    await until(async () => (await a.sessions.list()).length === 2, 's3 listed');
    await b.link.command.destroy();
    await b.link.subscriber.destroy();
    await until(async () => (await a.sessions.list()).every((s) => s.replicaId === 'r-a'), 'r-b sessions to expire');
  });

  it("fails clearly when Redis is unreachable, or starts locally with onUnavailable: 'local'", async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const started = Date.now();
    const error = await createCluster({ redis: url, logger: silent, connectTimeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterUnavailableError);
    expect(String((error as Error).message)).toMatch(/did not answer within 300 ms.*redis-server/);
    expect(Date.now() - started).toBeLessThan(3_000);

    const local = await createCluster({ redis: url, logger: silent, connectTimeoutMs: 200, onUnavailable: 'local' });
    open.push(local);
    expect(local.link.isReady).toBe(false);
    expect(await local.toolState.load()).toBeUndefined();
    expect((await local.toolState.save(['early'])).disabled).toEqual(['early']);
    await expect(local.sessions.list()).rejects.toBeInstanceOf(ClusterUnavailableError);
    const late = await RedisServer.start(port);
    try {
      await until(() => local.link.isReady, 'the local replica to connect', 10_000);
      const other = await createCluster({ redis: url, logger: silent });
      open.push(other);
      await until(
        async () => (await other.toolState.load())?.disabled.join() === 'early',
        'the reconciled set',
        10_000,
      );
    } finally {
      await Promise.allSettled(open.splice(0).map((cluster) => cluster.close()));
      await late.stop();
    }
  });
});
