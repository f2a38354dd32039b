// @needs redis-server
// Tool overrides across two replicas through a real redis-server: an override made through one
// replica's admin API reaches the other replica's clients (v1, v2 legacy, v2 2026-07-28) with one
// list_changed each and is listed and called there under the new name; overrides of different
// tools made on both replicas at once are both kept; a replica joining later starts with them.
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster } from '../../src/cluster/create-cluster.js';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { call, startAdminServer } from '../admin/admin-harness.js';
import { CLIENT_KINDS, connectClient, type TestClient } from '../support/clients.js';
import { RedisServer } from '../support/services.js';
import { silentLogger, within } from './replicas.js';

const PREFIX = 'overrides-cluster';
let redis: RedisServer;
const servers: HttpMcpServer[] = [];
const clients: TestClient[] = [];

const join = (replicaId: string) =>
  createCluster({ redis: redis.url, prefix: PREFIX, replicaId, heartbeatMs: 1_000, logger: silentLogger });

beforeAll(async () => {
  redis = await RedisServer.start();
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await Promise.allSettled(servers.map((server) => server.stop()));
  await redis?.stop();
}, 30_000);

describe('tool overrides on two replicas (redis-server)', () => {
  it('an override made on replica A reaches every client of replica B once; later replicas load it', async () => {
    const a = await startAdminServer({ cluster: await join('ra') });
    const b = await startAdminServer({ cluster: await join('rb') });
    servers.push(a.server, b.server);
    const url = new URL(b.mcp);
    const onB = await Promise.all(
      CLIENT_KINDS.map((kind) => connectClient(kind, kind === 'v1' ? new HttpV1(url) : new HttpV2(url))),
    );
    clients.push(...onB);

    const put = await call(a.admin, 'tools/echo/override', {
      method: 'PUT',
      body: { name: 'say', description: 'Says text back.' },
    });
    expect(put.status).toBe(200);
    expect(put.body.tool).toMatchObject({ name: 'echo', exposedName: 'say', override: { name: 'say' } });
    for (const client of onB) await client.toolsChanged.waitFor(1, 10_000);
    for (const client of onB) {
      expect((await client.toolNames()).sort()).toEqual(['fail', 'say', 'whoami']);
      expect((await client.callTool('say', { text: 'hi' })).content[0]?.text).toBe('hi');
    }
    expect(b.server.getToolStates().find((row) => row.tool.name === 'echo')?.override).toEqual({
      name: 'say',
      description: 'Says text back.',
    });

    // Both replicas override different tools at the same moment: both survive on both.
    a.server.setToolOverride('whoami', { title: 'Who am I' });
    b.server.setToolOverride('fail', { name: 'always_fails' });
    const overridesOf = (server: HttpMcpServer) =>
      Object.fromEntries(server.getToolStates().map((row) => [row.tool.name, row.name]));
    const wanted = { echo: 'say', fail: 'always_fails', whoami: 'whoami' };
    await within(
      () =>
        JSON.stringify(overridesOf(a.server)) === JSON.stringify(wanted) &&
        JSON.stringify(overridesOf(b.server)) === JSON.stringify(wanted) &&
        a.server.getToolStates().find((row) => row.tool.name === 'whoami')?.override?.title === 'Who am I' &&
        b.server.getToolStates().find((row) => row.tool.name === 'whoami')?.override?.title === 'Who am I',
      'both replicas to hold both overrides',
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const client of onB) expect(client.toolsChanged.count).toBe(3); // one per change, none echoed back

    // A replica that joins later starts with the stored overrides; clearing one reaches it too.
    const c = await startAdminServer({ cluster: await join('rc') });
    servers.push(c.server);
    expect(overridesOf(c.server)).toEqual(wanted);
    const cleared = await call(b.admin, 'tools/fail/override', { method: 'DELETE' });
    expect(cleared.body.tool).toMatchObject({ exposedName: 'fail', override: null });
    await within(() => overridesOf(c.server).fail === 'fail', 'replica C to apply the cleared override', 10_000);
  }, 60_000);
});
