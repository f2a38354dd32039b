// @needs redis-server
// rateLimit() on two replicas of one cluster (createCluster on a real redis-server): the budget is
// kept in the cluster's Redis, so calls spread over both replicas spend one budget per principal.
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster } from '../../src/cluster/create-cluster.js';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import { rateLimit } from '../../src/middleware/rate-limit.js';
import { defineTool } from '../../src/registry/tool.js';
import { connectClient, type TestClient } from '../support/clients.js';
import { RedisServer } from '../support/services.js';

const noop = () => {};
const silent = { debug: noop, info: noop, warn: noop, error: noop, child: () => silent } as never;

let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis?.stop();
});

async function replica(id: string, store?: 'memory') {
  const cluster = await createCluster({
    redis: redis.url,
    prefix: 'rate-test',
    replicaId: id,
    logger: silent,
    heartbeatMs: 200,
  });
  const server = new HttpMcpServer(
    { name: id, version: '1.0.0' },
    {
      port: 0,
      logger: silent,
      cluster,
      authenticate: (req) => ({ token: 't', clientId: String(req.headers['x-user']), scopes: [] }),
    },
  );
  server.registerTool(defineTool({ name: 'ping', execute: () => `pong from ${id}` }));
  server.use(rateLimit({ points: 3, durationMs: 60_000, ...(store && { store, keyPrefix: `mem-${id}` }) }), {
    methods: ['tools/call'],
  });
  await server.start();
  return server;
}

async function client(server: HttpMcpServer, user: string): Promise<TestClient> {
  const init = { requestInit: { headers: { 'x-user': user } } };
  return connectClient('v2-modern', new HttpV2(new URL(server.address.url), init));
}

describe('rateLimit() across replicas', () => {
  it('spends one budget per principal on every replica through the cluster Redis', { timeout: 30_000 }, async () => {
    const [a, b] = [await replica('replica-a'), await replica('replica-b')];
    const clients: TestClient[] = [];
    try {
      const onA = await client(a, 'erin');
      const onB = await client(b, 'erin');
      const other = await client(b, 'frank');
      clients.push(onA, onB, other);
      const outcomes = [];
      for (const c of [onA, onB, onA, onB]) outcomes.push((await c.callTool('ping')).isError === true);
      expect(outcomes).toEqual([false, false, false, true]);
      const refused = await onA.callTool('ping');
      expect(refused.content[0]?.text).toMatch(
        /^Rate limit reached for tool "ping" \(3 per 60 s\); try again in \d+ s\.$/,
      );
      expect((await other.callTool('ping')).isError).toBeFalsy();
    } finally {
      for (const c of clients) await c.close().catch(() => {});
      await a.stop();
      await b.stop();
    }
  });

  it("keeps separate budgets with store: 'memory' (the control)", { timeout: 30_000 }, async () => {
    const [a, b] = [await replica('replica-c', 'memory'), await replica('replica-d', 'memory')];
    const clients: TestClient[] = [];
    try {
      const onA = await client(a, 'gina');
      const onB = await client(b, 'gina');
      clients.push(onA, onB);
      const outcomes = [];
      for (const c of [onA, onB, onA, onB]) outcomes.push((await c.callTool('ping')).isError === true);
      expect(outcomes).toEqual([false, false, false, false]);
    } finally {
      for (const c of clients) await c.close().catch(() => {});
      await a.stop();
      await b.stop();
    }
  });
});
