// @needs redis-server
// Redis restarted empty under running replicas, then a new replica joins: the replicas still
// agree on the key sealing 2026-07-28 `requestState`, with no environment variable. A round
// started on an old replica before the restart completes on the new one, and one started on the
// new replica completes on the old ones (real redis-server, replica processes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServer } from '../support/services.js';
import { modernRequest, Replica, within } from './replicas.js';

const PREFIX = 'secrets-test';
let redis: RedisServer;
const replicas: Replica[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
  replicas.push(...(await Promise.all(['r1', 'r2'].map((id) => Replica.start(redis.url, PREFIX, id)))));
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(replicas.map((replica) => replica.stop()));
  await redis?.stop();
}, 30_000);

/** Starts an `ask_name` round on `replica`: its requestState. */
async function startRound(replica: Replica): Promise<string> {
  const first = await modernRequest(replica.url, 'tools/call', { name: 'ask_name', arguments: {} });
  const state = (first.result as { requestState?: string }).requestState;
  expect(state, JSON.stringify(first)).toBeTruthy();
  return state!;
}

/** Answers the round on `replica`: the tool's text, or the JSON-RPC error message. */
async function answer(replica: Replica, requestState: string): Promise<string> {
  const second = await modernRequest(replica.url, 'tools/call', {
    name: 'ask_name',
    arguments: {},
    requestState,
    inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
  });
  return second.error?.message ?? (second.result as { content: Array<{ text: string }> }).content[0]!.text;
}

describe('the requestState key across a Redis restarted empty', () => {
  it('old and new replicas accept each other’s rounds', async () => {
    const before = await startRound(replicas[0]!);
    await redis.stop();
    await redis.restart(); // empty
    await within(
      async () => (await Promise.all(replicas.map((r) => r.call<boolean>('redisReady')))).every(Boolean),
      'the replicas to reconnect',
      10_000,
    );
    replicas.push(await Replica.start(redis.url, PREFIX, 'r3'));
    // Bounded by one key sync (heartbeatMs, 1 s in the fixture); at once in the usual order.
    let last = '';
    await within(
      async () => (last = await answer(replicas[2]!, before)) === 'Hello Ada from r3',
      'the new replica to accept a round started before the restart',
      5_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; last answer: ${last}`);
    });
    const started = await startRound(replicas[2]!);
    expect(await answer(replicas[0]!, started)).toBe('Hello Ada from r1');
    expect(await answer(replicas[1]!, started)).toBe('Hello Ada from r2');
  }, 60_000);
});
