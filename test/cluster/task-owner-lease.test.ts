// @needs redis-server
// A replica dies (SIGKILL) while running a task: the task becomes `failed` with a reason naming
// the dead replica within the documented bound (4 heartbeats), and a 2025-11-25 `tasks/result`
// waiting for it on another replica is answered with that error. Real redis-server, replica
// processes, one authenticated principal (the same tasks in both eras and on every replica).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, openSession, post, sessionHeaders } from '../e2e/http-helpers.js';
import { RedisServer } from '../support/services.js';
import { modernRequest, Replica, within } from './replicas.js';

const PREFIX = 'lease-test';
const HEARTBEAT_MS = 1_000; // the fixture's heartbeatMs
const AUTH = { Authorization: 'Bearer alice' };
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
let redis: RedisServer;
let replicas: Replica[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
  replicas = await Promise.all(
    ['r1', 'r2'].map((id) => Replica.start(redis.url, PREFIX, id, 'fail', { CLUSTER_REPLICA_AUTH: '1' })),
  );
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(replicas.map((replica) => replica.stop()));
  await redis?.stop();
}, 30_000);

describe('a task whose replica dies', () => {
  it('becomes failed within 4 heartbeats, naming the replica; a tasks/result waiting elsewhere is answered', async () => {
    const created = await modernRequest(
      replicas[0]!.url,
      'tools/call',
      { name: 'slow', arguments: { ms: 120_000 } },
      TASKS,
      AUTH,
    );
    const taskId = (created.result as { taskId?: string }).taskId;
    expect(taskId, JSON.stringify(created)).toBeTruthy();
    const status = async () =>
      (await modernRequest(replicas[1]!.url, 'tasks/get', { taskId }, TASKS, AUTH)).result as {
        status: string;
        statusMessage?: string;
      };
    expect((await status()).status).toBe('working');

    // A 2025-11-25 client of the same principal waits for the result on replica 2.
    const session = await openSession(replicas[1]!.url, AUTH);
    const waiting = post(
      replicas[1]!.url,
      { jsonrpc: '2.0', id: 9, method: 'tasks/result', params: { taskId } },
      sessionHeaders(session, AUTH),
    ).then(messages);

    await replicas[0]!.stop('SIGKILL');
    const killed = performance.now();
    await within(async () => (await status()).status === 'failed', 'the task to fail', 4 * HEARTBEAT_MS + 4_000);
    expect(performance.now() - killed).toBeLessThan(4 * HEARTBEAT_MS + 4_000);
    expect((await status()).statusMessage).toMatch(/replica running this task \(r1\) stopped/);

    const [answer] = await waiting;
    expect(answer).toMatchObject({
      id: 9,
      error: { code: -32603, message: expect.stringMatching(/\(r1\) stopped.*Start the task again/) },
    });
  }, 60_000);
});
