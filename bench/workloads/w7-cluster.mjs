/* global performance */
// W7 cluster (issue 15): our HttpMcpServer as 3 replicas sharing one redis-server.
// (a) Toggle fan-out: 300 clients per replica (250 legacy sessions with a GET stream + 50
//     2026-07-28 listen streams); one toggle on replica 1; time until the last client of any
//     replica is told, against one process holding the same 900 clients (W5's setup).
// (b) tools/call server CPU per 1k calls (legacy sessions, 16 concurrent clients), one process
//     with the cluster option on vs off.
import { startChild } from '../lib/children.mjs';
import { FanoutCounter, openListeners } from '../lib/fanout.mjs';
import { bodies, HttpDriver, legacyHeaders } from '../lib/http-driver.mjs';
import { startRedis } from '../lib/redis.mjs';
import { median, num, percentile, ratio, runConcurrent, sleep, table } from '../lib/stats.mjs';

const REPLICAS = 3;
const PER_REPLICA = { legacy: 250, modern: 50 };
const QUIET_MS = 500;
const CALL_CLIENTS = 16;

/** One toggle over `replicas` processes (1 = no cluster) holding REPLICAS x PER_REPLICA clients in total. */
async function fanout(redisUrl, replicas, round) {
  const total = REPLICAS * (PER_REPLICA.legacy + PER_REPLICA.modern);
  const config = replicas > 1 ? { tools: 2, redis: redisUrl, prefix: `w7-${round}` } : { tools: 2 };
  const children = await Promise.all(
    Array.from({ length: replicas }, () => startChild('ours', 'http', config, { hardTimeoutMs: 180_000 })),
  );
  const drivers = children.map((child) => new HttpDriver(child.port, 100));
  const closers = [];
  try {
    const counter = new FanoutCounter(total);
    const share = {
      legacy: (PER_REPLICA.legacy * REPLICAS) / replicas,
      modern: (PER_REPLICA.modern * REPLICAS) / replicas,
    };
    for (const [i, driver] of drivers.entries()) {
      const first = i * (share.legacy + share.modern);
      closers.push(...(await openListeners(driver, counter, { first, ...share })));
    }
    await sleep(300);
    const t0 = performance.now();
    const toggledAt = await children[0].call('toggle');
    const { times, ...figures } = await counter.result(t0, QUIET_MS);
    // When the last replica applied the toggle (its tools/list changed), on the shared clock.
    const applied = await Promise.all(children.map((child) => child.call('toggledAt')));
    return { ...figures, p50Ms: percentile(times, 50), appliedMs: Math.max(...applied) - toggledAt };
  } finally {
    for (const close of closers) close();
    for (const driver of drivers) driver.close();
    await Promise.all(children.map((child) => child.kill()));
  }
}

/** Server CPU-s per 1k legacy tools/call on one process, with or without the cluster option. */
export async function callCpu(redisUrl, withCluster, sizes, round) {
  const config = withCluster ? { tools: 1, redis: redisUrl, prefix: `w7-cpu-${round}` } : { tools: 1 };
  const child = await startChild('ours', 'http', config, { hardTimeoutMs: 120_000 });
  const driver = new HttpDriver(child.port, CALL_CLIENTS);
  try {
    const sessions = await Promise.all(Array.from({ length: CALL_CLIENTS }, () => driver.openSession()));
    let id = 100;
    const send = async (worker) => {
      const result = await driver.rpc(bodies.call(id++), legacyHeaders(sessions[worker]));
      if (result?.content?.[0]?.text !== 'hello') throw new Error('W7: unexpected tools/call result');
    };
    await runConcurrent(CALL_CLIENTS, sizes.warmup, send);
    const cpu0 = child.cpu();
    await runConcurrent(CALL_CLIENTS, sizes.calls, send);
    return ((child.cpu() - cpu0) / sizes.calls) * 1000;
  } finally {
    driver.close();
    await child.kill();
  }
}

export async function run({ quick, rounds, log }) {
  const redis = await startRedis();
  const sizes = quick ? { warmup: 500, calls: 1_500 } : { warmup: 1_000, calls: 4_000 };
  const results = { single: [], cluster: [], cpuOff: [], cpuOn: [] };
  try {
    for (let round = 0; round < rounds; round += 1) {
      // Interleaved, alternating which goes first.
      const order = round % 2 === 0 ? [1, REPLICAS] : [REPLICAS, 1];
      for (const replicas of order) {
        const result = await fanout(redis.url, replicas, round);
        (replicas === 1 ? results.single : results.cluster).push(result);
        log(
          `W7 round ${round + 1}/${rounds} ${replicas} process(es): ${num(result.lastMs)} ms, ${result.exactlyOnce}/${result.clients} once`,
        );
      }
      for (const on of round % 2 === 0 ? [false, true] : [true, false]) {
        const cpu = await callCpu(redis.url, on, sizes, round);
        (on ? results.cpuOn : results.cpuOff).push(cpu);
        log(`W7 round ${round + 1}/${rounds} tools/call cluster ${on ? 'on' : 'off'}: ${num(cpu, 3)} CPU-s/1k`);
      }
    }
  } finally {
    await redis.stop();
  }
  const med = (list, field) => median(list.map((r) => (field ? r[field] : r)));
  const worst = (list, field) => Math.min(...list.map((r) => r[field]));
  const single = med(results.single, 'lastMs');
  const cluster = med(results.cluster, 'lastMs');
  const [cpuOff, cpuOn] = [med(results.cpuOff), med(results.cpuOn)];
  const clients = results.cluster[0].clients;
  const rows = [
    ['1 process (no cluster)', results.single],
    [`${REPLICAS} replicas + Redis`, results.cluster],
  ].map(([label, list]) => [
    label,
    String(clients),
    num(med(list, 'p50Ms'), 1),
    num(med(list, 'lastMs'), 1),
    num(med(list, 'appliedMs'), 1),
    `${worst(list, 'exactlyOnce')} / ${clients}`,
  ]);
  return {
    id: 'W7',
    headline: [
      { metric: 'cluster fan-out all notified ms', value: cluster, better: 'lower' },
      { metric: 'tools/call CPU-s / 1k with cluster', value: cpuOn, better: 'lower' },
    ],
    title: 'W7 cluster: toggle fan-out across replicas, tools/call CPU with the cluster option',
    markdown:
      `One toggle on replica 1 with ${PER_REPLICA.legacy} legacy sessions (GET stream) + ${PER_REPLICA.modern} ` +
      `2026-07-28 listen streams per replica, against one process holding all ${clients} clients; times from the ` +
      `toggle command to each client's \`notifications/tools/list_changed\`, counts checked ${QUIET_MS} ms after ` +
      `the last one (worst run)\n\n` +
      table(['setup', 'clients', 'p50 ms', 'all notified ms', 'last replica applied ms', 'exactly once'], rows) +
      `\n\n\`tools/call\` (legacy sessions, ${CALL_CLIENTS} concurrent clients, ${sizes.calls} calls): server ` +
      `CPU-s per 1k calls ${num(cpuOff, 3)} without and ${num(cpuOn, 3)} with the cluster option ` +
      `(${ratio(cpuOn, cpuOff)})`,
    targets: [
      {
        target: `all ${clients} clients of ${REPLICAS} replicas notified exactly once`,
        measured: `${worst(results.cluster, 'exactlyOnce')} / ${clients} in the worst run`,
        met: results.cluster.every((r) => r.exactlyOnce === r.clients),
      },
      {
        target: 'every replica serves the new tools/list within 200 ms',
        measured: `${num(med(results.cluster, 'appliedMs'), 1)} ms (median)`,
        met: med(results.cluster, 'appliedMs') <= 200,
      },
      {
        target: 'cluster fan-out under 2x one process with the same clients',
        measured: `${num(cluster, 1)} vs ${num(single, 1)} ms = ${ratio(cluster, single)}`,
        met: cluster < 2 * single,
      },
      {
        target: 'tools/call CPU with the cluster option <= 1.1x without',
        measured: `${num(cpuOn, 3)} vs ${num(cpuOff, 3)} CPU-s/1k = ${ratio(cpuOn, cpuOff)}`,
        met: cpuOn <= 1.1 * cpuOff,
      },
    ],
  };
}
