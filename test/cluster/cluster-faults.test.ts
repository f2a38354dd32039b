// @needs redis-server
// Redis lost while three replica processes serve: every replica keeps serving (tool calls never
// fail because of Redis), a toggle made on replica 1 meanwhile reaches its own clients at once,
// and when redis-server is back on the same port every replica converges on it, each client
// told exactly once. Also: a replica started while Redis is down ('local') joins it later; and
// changes acknowledged on two replicas during an outage (different tools, a resource update)
// all survive it, while each replica reports Redis unreachable and what waits for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/clients.js';
import { RedisServer } from '../support/services.js';
import type { ClusterStatus } from '../../src/state/cluster-membership.js';
import { connectSpread, Replica, toolNamesAt, within } from './replicas.js';

const PREFIX = 'faults-test';

let redis: RedisServer;
let replicas: Replica[] = [];
let clients: Array<{ client: TestClient; replica: Replica }> = [];

beforeAll(async () => {
  redis = await RedisServer.start();
  replicas = await Promise.all(['r1', 'r2', 'r3'].map((id) => Replica.start(redis.url, PREFIX, id)));
  clients = [...(await connectSpread(replicas, 12, 'legacy')), ...(await connectSpread(replicas, 6, 'modern'))];
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map(({ client }) => client.close()));
  await Promise.allSettled(replicas.map((replica) => replica.stop()));
  await redis?.stop();
}, 30_000);

/** Stops redis-server and waits until every replica has noticed. */
async function stopRedis() {
  await redis.stop();
  await within(
    async () => (await Promise.all(replicas.map((r) => r.call<boolean>('redisReady')))).every((ready) => !ready),
    'every replica to notice Redis is gone',
    10_000,
  );
}

describe('Redis outage while serving', () => {
  it('keeps serving, applies the toggle locally, converges when Redis returns; no call fails', async () => {
    const failures: unknown[] = [];
    let calls = 0;
    let running = true;
    // Client traffic through the whole outage: every call must succeed.
    const traffic = Promise.all(
      clients.map(async ({ client }) => {
        while (running) {
          await client.callTool('whoami').then(
            () => (calls += 1),
            (error: unknown) => failures.push(error),
          );
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );

    await stopRedis();
    await replicas[0]!.call('disable', 'echo');
    const own = clients.filter(({ replica }) => replica === replicas[0]);
    await Promise.all(own.map(({ client }) => client.toolsChanged.waitFor(1, 5_000)));
    expect(await toolNamesAt(replicas[0]!.url)).not.toContain('echo');
    expect(await toolNamesAt(replicas[1]!.url)).toContain('echo'); // last known state until Redis returns

    await redis.restart();
    await within(
      async () =>
        (await Promise.all(replicas.map((r) => toolNamesAt(r.url)))).every((names) => !names.includes('echo')),
      'every replica to converge on the toggle',
      15_000,
    );
    await Promise.all(clients.map(({ client }) => client.toolsChanged.waitFor(1, 10_000)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    running = false;
    await traffic;
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(clients.length);
    expect(clients.map(({ client }) => client.toolsChanged.count)).toEqual(clients.map(() => 1));
    for (const replica of replicas) expect(replica.child.exitCode).toBeNull();
  }, 60_000);

  it("a replica started while Redis is down ('local') serves, then adopts the cluster's state", async () => {
    await redis.stop();
    const late = await Replica.start(redis.url, PREFIX, 'r4', 'local');
    replicas.push(late);
    expect(await toolNamesAt(late.url)).toContain('echo'); // its configured defaults
    await redis.restart();
    // Redis restarted empty: the older replicas re-seed it with the shared state, which wins over
    // the newcomer's defaults (it never saw the cluster's state).
    await within(async () => !(await toolNamesAt(late.url)).includes('echo'), 'r4 to adopt the cluster state', 15_000);
    expect(await toolNamesAt(replicas[0]!.url)).not.toContain('echo');
  }, 60_000);

  it('changes acknowledged on two replicas during an outage all survive it; status says Redis is unreachable', async () => {
    const uri = 'memo://shared-note';
    const watcher = clients.find(({ replica }) => replica === replicas[2])!.client;
    await watcher.subscribe(uri);
    await stopRedis();
    await replicas[1]!.call('disable', 'slow');
    await replicas[2]!.call('disable', 'ask_name');
    await replicas[1]!.call('resourceUpdated', uri);
    const down = await replicas[1]!.call<ClusterStatus>('clusterStatus');
    expect(down).toMatchObject({ reachable: false, unconfirmedChanges: 1, heldChanges: 1, url: redis.url });
    expect(await toolNamesAt(replicas[1]!.url)).toEqual(['whoami', 'ask_name']);
    expect(await toolNamesAt(replicas[2]!.url)).toEqual(['whoami', 'slow']);
    expect(watcher.resourceUpdated.count).toBe(0); // told when Redis is back, not lost

    await redis.restart(); // empty: every replica merges what it knows
    await within(
      async () =>
        (await Promise.all(replicas.map((r) => toolNamesAt(r.url)))).every((names) => names.join() === 'whoami'),
      'every replica to hold both changes',
      15_000,
    );
    await watcher.resourceUpdated.waitFor(1, 10_000);
    await within(
      async () =>
        (await Promise.all(replicas.map((r) => r.call<ClusterStatus>('clusterStatus')))).every(
          (status) => status.reachable && status.unconfirmedChanges === 0 && status.heldChanges === 0,
        ),
      'every replica to report Redis reachable with nothing waiting',
      10_000,
    );
  }, 60_000);
});
