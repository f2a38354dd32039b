// @needs redis-server haproxy
// A replica killed with SIGKILL under load, behind a real HAProxy running the shipped
// examples/haproxy/haproxy.cfg: 2026-07-28 clients (stateless requests) keep being served by
// the other replicas. A request that had not reached the dead replica is retried on another
// one (connection refused, or an idle keep-alive connection found closed); only a `tools/call`
// that was already running on it when it died fails (a dropped connection or 502: it may have
// run, so it is never sent twice), and nothing that started after the kill fails at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HaproxyServer, RedisServer } from '../support/services.js';
import { POST_HEADERS } from '../e2e/http-helpers.js';
import { startBalancedCluster, type Replica } from './replicas.js';

const CLIENTS = 15;

let redis: RedisServer;
let haproxy: HaproxyServer;
let replicas: Replica[] = [];

beforeAll(async () => {
  ({ redis, replicas, haproxy } = await startBalancedCluster('failover-test'));
}, 60_000);

afterAll(async () => {
  await haproxy?.stop();
  await Promise.allSettled(replicas.map((replica) => replica.stop()));
  await redis?.stop();
}, 30_000);

interface Outcome {
  readonly method: string;
  readonly started: number;
  readonly ended: number;
  readonly status: number;
  readonly answer?: string;
  readonly error?: string;
}

/** One 2026-07-28 request through the balancer; never throws (a network error is status 0). */
async function request(method: 'tools/call' | 'tools/list'): Promise<Outcome> {
  const started = performance.now();
  const params = method === 'tools/call' ? { name: 'whoami', arguments: {} } : {};
  try {
    const response = await fetch(haproxy.url, {
      method: 'POST',
      headers: {
        ...POST_HEADERS,
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': method,
        ...(method === 'tools/call' && { 'Mcp-Name': 'whoami' }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const text = await response.text();
    let answer: string | undefined;
    if (response.status === 200) {
      const body = JSON.parse(text.startsWith('{') ? text : (text.split('data: ')[1] ?? '{}')) as {
        result?: { content?: Array<{ text?: string }>; tools?: unknown[] };
      };
      answer = body.result?.content?.[0]?.text ?? (body.result?.tools ? 'list' : undefined);
    }
    return { method, started, ended: performance.now(), status: response.status, answer };
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    return {
      method,
      started,
      ended: performance.now(),
      status: 0,
      answer: undefined,
      error: String(cause?.message ?? error),
    };
  }
}

describe('HAProxy with the shipped config: a replica killed under load', () => {
  it('2026-07-28 clients see no error but a tools/call that was running on the dead replica', async () => {
    const outcomes: Outcome[] = [];
    let running = true;
    const load = Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        for (let k = i; running; k += 1) {
          outcomes.push(await request(k % 2 === 0 ? 'tools/call' : 'tools/list'));
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const killedAt = performance.now();
    await replicas[1]!.stop('SIGKILL');
    const killed = performance.now();
    // Longer than HAProxy's health check needs to mark it down (fall 2 x inter 1s); then until enough
    // calls started after the kill, however slow a loaded machine makes each one (bounded).
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const enoughBy = performance.now() + 30_000;
    const callsAfterKill = () =>
      outcomes.filter((outcome) => outcome.started > killed && outcome.method === 'tools/call').length;
    while (callsAfterKill() <= CLIENTS * 5 && performance.now() < enoughBy) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    running = false;
    await load;

    const failed = outcomes.filter((outcome) => outcome.status !== 200 || outcome.answer === undefined);
    const inFlightCall = (outcome: Outcome) =>
      outcome.method === 'tools/call' && outcome.started <= killed && outcome.ended >= killedAt;
    expect(failed.filter((outcome) => !inFlightCall(outcome))).toEqual([]);
    // A call running on the dead replica is not retried elsewhere: it is answered 502, never 503.
    // The calls running on the dead replica: never retried elsewhere, never a 503. HAProxy closes
    // the client connection ("other side closed") or answers 502, as an MCP client sees a dropped
    // connection.
    for (const outcome of failed) expect([0, 502]).toContain(outcome.status);
    expect(failed.length).toBeLessThanOrEqual(CLIENTS);
    const after = outcomes.filter((outcome) => outcome.started > killed && outcome.method === 'tools/call');
    expect(after.length).toBeGreaterThan(CLIENTS * 5);
    expect(new Set(after.map((outcome) => outcome.answer))).toEqual(new Set(['r1', 'r3']));
  }, 90_000);
});
