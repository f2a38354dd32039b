// @needs redis-server haproxy
// Legacy sessions behind a real HAProxy running examples/haproxy/haproxy.cfg (the config
// docs/scaling.md shows): round-robin over three replica processes, sticky on Mcp-Session-Id
// learnt from the initialize response. 30 SDK clients (v1 and v2 legacy) work through it, their
// sessions land on every replica, and every request of a session reaches the replica that holds
// it (any other replica would answer 404).
import { readFileSync } from 'node:fs';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from '../support/clients.js';
import type { HaproxyServer, RedisServer } from '../support/services.js';
import { HAPROXY_CONFIG, startBalancedCluster, type Replica, within } from './replicas.js';

const CLIENTS = 30;

let redis: RedisServer;
let haproxy: HaproxyServer;
let replicas: Replica[] = [];
const clients: TestClient[] = [];

beforeAll(async () => {
  ({ redis, replicas, haproxy } = await startBalancedCluster('sticky-test'));
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await haproxy?.stop();
  await Promise.allSettled(replicas.map((replica) => replica.stop()));
  await redis?.stop();
}, 30_000);

describe('HAProxy with the documented sticky-session config', () => {
  it('docs/scaling.md shows the tested config verbatim', () => {
    const doc = readFileSync(new URL('../../docs/scaling.md', import.meta.url), 'utf8');
    expect(doc).toContain(readFileSync(HAPROXY_CONFIG, 'utf8').trim());
  });

  it('spreads legacy sessions over the replicas and keeps every request of a session on its replica', async () => {
    const url = new URL(haproxy.url);
    for (let i = 0; i < CLIENTS; i += 1) {
      clients.push(
        await connectClient(i % 2 === 0 ? 'v1' : 'v2-legacy', i % 2 === 0 ? new HttpV1(url) : new HttpV2(url)),
      );
    }
    const perReplica = await Promise.all(replicas.map((r) => r.call<Array<{ id: string }>>('sessions')));
    expect(perReplica.map((sessions) => sessions.length).reduce((a, b) => a + b)).toBe(CLIENTS);
    for (const sessions of perReplica) expect(sessions.length).toBeGreaterThanOrEqual(CLIENTS / 3 - 2);

    // Several requests per session, all answered by the replica holding it (whoami names it).
    const answers = await Promise.all(
      clients.map(async (client) => {
        const seen = new Set<string>();
        for (let k = 0; k < 4; k += 1) seen.add((await client.callTool('whoami')).content[0]!.text!);
        return seen;
      }),
    );
    for (const seen of answers) expect(seen.size).toBe(1);
    expect(new Set(answers.flatMap((seen) => [...seen]))).toEqual(new Set(['r1', 'r2', 'r3']));

    // Toggles reach every client through HAProxy's long-lived GET streams.
    await replicas[1]!.call('disable', 'echo');
    await Promise.all(clients.map((client) => client.toolsChanged.waitFor(1, 10_000)));
    await within(async () => !(await clients[0]!.toolNames()).includes('echo'), 'echo gone', 2_000);
  });
});
