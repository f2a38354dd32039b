// @needs redis-server
// The settings page's API on one replica of a cluster (real redis-server): a toggle made through
// it reaches the other replica, and GET /api/cluster/sessions lists every replica's sessions.
/* eslint-disable @typescript-eslint/no-explicit-any -- the API answers are parsed JSON, asserted field by field */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster } from '../../src/cluster/create-cluster.js';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { call, startAdminServer } from '../admin/admin-harness.js';
import { openSession } from '../e2e/http-helpers.js';
import { RedisServer } from '../support/services.js';
import { silentLogger, within } from './replicas.js';

let redis: RedisServer;
const servers: HttpMcpServer[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
});

afterAll(async () => {
  await Promise.allSettled(servers.map((server) => server.stop()));
  await redis?.stop();
});

describe('admin API on a cluster replica', () => {
  it('toggles cluster-wide and lists every replica’s sessions', async () => {
    const join = (replicaId: string) =>
      createCluster({ redis: redis.url, prefix: 'admin-cluster', replicaId, logger: silentLogger });
    const a = await startAdminServer({ cluster: await join('ra') });
    const b = await startAdminServer({ cluster: await join('rb') });
    servers.push(a.server, b.server);

    const put = await call(a.admin, 'disabled', { method: 'PUT', body: { disabled: ['echo'] } });
    expect(put.status).toBe(200);
    await within(() => b.server.tools.disabledNames().includes('echo'), 'rb to apply the toggle', 5_000);

    const onB = await openSession(b.mcp);
    await within(
      async () => (await call(a.admin, 'cluster/sessions')).body.sessions.some((s: any) => s.sessionId === onB),
      'rb session listed on ra',
      5_000,
    );
    const { body } = await call(a.admin, 'cluster/sessions');
    expect(body).toMatchObject({ supported: true, replicaId: 'ra' });
    expect(body.sessions.find((s: any) => s.sessionId === onB)).toMatchObject({ replicaId: 'rb' });

    // GET /api/cluster: this replica, and Redis's status where the membership reports one.
    const about = (await call(a.admin, 'cluster')).body;
    expect(about).toMatchObject({ supported: true, replicaId: 'ra' });
    expect(about.status === null || about.status.reachable === true).toBe(true);
    expect((await call(a.admin, 'cluster')).headers.get('cache-control')).toBe('no-store');
  });
});
