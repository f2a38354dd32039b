// @needs redis-server
// Upstream tools across replicas through a real redis-server: two gateway replicas each run the
// same upstream (server-everything over stdio); an operator disabling an upstream tool on replica A
// reaches every client of replica B once (v1, v2 legacy, v2 2026-07-28) and is refused there; a
// replica that joins later starts with the tool disabled even though its upstream's tools arrive
// after it started; enabling it again on that replica reaches the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster } from '../../src/cluster/create-cluster.js';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import {
  CLIENT_KINDS,
  EVERYTHING,
  connectGatewayClient,
  quiet,
  type GatewayClient,
} from '../composition/gateway-clients.js';
import { RedisServer } from '../support/services.js';
import { silentLogger, within } from './replicas.js';

const PREFIX = 'upstream-cluster';
const TOOL = 'everything_echo';
let redis: RedisServer;
const servers: HttpMcpServer[] = [];
const clients: GatewayClient[] = [];

/** A gateway replica joined to the cluster, with server-everything as its upstream, connected. */
async function replica(replicaId: string): Promise<HttpMcpServer> {
  const cluster = await createCluster({
    redis: redis.url,
    prefix: PREFIX,
    replicaId,
    heartbeatMs: 1_000,
    logger: silentLogger,
  });
  const server = new HttpMcpServer(
    { name: `gateway-${replicaId}`, version: '1.0.0' },
    { port: 0, cluster, logger: silentLogger },
  );
  servers.push(server);
  const upstream = server.addUpstream({ name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'] });
  await server.start();
  await upstream.whenConnected();
  await within(() => server.getToolStates().some((state) => state.name === TOOL), `${TOOL} on ${replicaId}`, 15_000);
  return server;
}

const enabledOn = (server: HttpMcpServer) => server.getToolStates().find((state) => state.name === TOOL)?.enabled;

beforeAll(async () => {
  redis = await RedisServer.start();
}, 30_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await Promise.allSettled(servers.map((server) => server.stop()));
  await redis?.stop();
}, 30_000);

describe('upstream tools on replicas (redis-server, server-everything)', () => {
  it('a toggle of an upstream tool on one replica reaches every replica and each client once', async () => {
    const [a, b] = await Promise.all([replica('ra'), replica('rb')]);
    await quiet(500); // server-everything announces its own list_changed once after initialize
    const onB = await Promise.all(CLIENT_KINDS.map((kind) => connectGatewayClient(kind, b.address.url)));
    clients.push(...onB);
    for (const client of onB) expect(await client.names()).toContain(TOOL);

    a.disableTool(TOOL);
    for (const client of onB) await client.toolsChanged.waitFor(1, 10_000);
    await quiet();
    for (const client of onB) {
      expect(client.toolsChanged.count).toBe(1);
      expect(await client.names()).not.toContain(TOOL);
      await expect(client.call(TOOL, { message: 'x' })).rejects.toThrow(/disabled|not found|unknown/i);
    }
    expect(enabledOn(b)).toBe(false);

    // A replica joining later: its upstream's tools arrive after start, and arrive disabled.
    const c = await replica('rc');
    expect(enabledOn(c)).toBe(false);
    const onC = await connectGatewayClient('v2-modern', c.address.url);
    clients.push(onC);
    expect(await onC.names()).not.toContain(TOOL);

    // Enabling it on the late replica reaches the first two.
    c.enableTool(TOOL);
    await within(() => enabledOn(a) === true && enabledOn(b) === true, `${TOOL} enabled on ra and rb`, 10_000);
    for (const client of onB) await client.toolsChanged.waitFor(2, 10_000);
    for (const client of onB) {
      expect(await client.names()).toContain(TOOL);
      expect((await client.call(TOOL, { message: client.kind })).content[0]?.text).toContain(client.kind);
    }
  }, 90_000);
});
