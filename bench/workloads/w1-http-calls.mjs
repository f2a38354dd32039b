/* global performance */
// W1 HTTP tools/call: one trivial tool, 16 concurrent clients; legacy sessions
// (2025-11-25) and the 2026-07-28 era. calls/s, p50/p99 latency, server CPU-s per 1k calls.
import { startChild } from '../lib/children.mjs';
import { bodies, HttpDriver, legacyHeaders, modernHeaders } from '../lib/http-driver.mjs';
import { median, num, percentile, ratio, rotate, runConcurrent, table } from '../lib/stats.mjs';

const CLIENTS = 16;
const ERAS = {
  legacy: ['ours', 'raw-v2', 'raw-v1', 'fastmcp'],
  modern: ['ours', 'raw-v2'],
};

/**
 * One run of `calls` tools/call (after `warmup`) by 16 concurrent clients. `start` gives the server under
 * test as `{ port, cpu(), kill() }`; by default `system` forked as a bench child (bench/fetch-handler.mjs
 * passes a Bun process).
 */
export async function measure(
  system,
  era,
  { warmup, calls },
  start = () => startChild(system, 'http', { tools: 1 }, { hardTimeoutMs: 120_000 }),
) {
  const child = await start();
  const driver = new HttpDriver(child.port, CLIENTS);
  try {
    const sessions =
      era === 'legacy' ? await Promise.all(Array.from({ length: CLIENTS }, () => driver.openSession())) : [];
    const latencies = [];
    let id = 100;
    const send = (worker) =>
      era === 'legacy'
        ? driver.rpc(bodies.call(id++), legacyHeaders(sessions[worker]))
        : driver.rpc(bodies.modernCall(id++), modernHeaders('tools/call', 'echo'));
    await runConcurrent(CLIENTS, warmup, send);
    const cpu0 = child.cpu();
    const t0 = performance.now();
    await runConcurrent(CLIENTS, calls, async (worker) => {
      const start = performance.now();
      const result = await send(worker);
      latencies.push(performance.now() - start);
      if (result?.content?.[0]?.text !== 'hello') throw new Error(`${system}: unexpected result`);
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = child.cpu() - cpu0;
    return {
      callsPerSecond: calls / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      cpuPer1k: (cpu / calls) * 1000,
    };
  } finally {
    driver.close();
    await child.kill();
  }
}

export async function run({ quick, rounds, log }) {
  const sizes = quick ? { warmup: 500, calls: 1_200 } : { warmup: 1_000, calls: 4_000 };
  const results = {};
  for (let round = 0; round < rounds; round += 1) {
    for (const [era, systems] of Object.entries(ERAS)) {
      for (const system of rotate(systems, round)) {
        const key = `${era}:${system}`;
        (results[key] ??= []).push(await measure(system, era, sizes));
        log(`W1 round ${round + 1}/${rounds} ${key}: ${num(results[key].at(-1).cpuPer1k, 3)} CPU-s/1k`);
      }
    }
  }
  const med = (key, field) => median(results[key]?.map((r) => r[field]) ?? []);
  const sections = [];
  for (const [era, systems] of Object.entries(ERAS)) {
    const ref = `${era}:raw-v2`;
    const rows = systems.map((system) => {
      const key = `${era}:${system}`;
      return [
        system,
        num(med(key, 'callsPerSecond'), 0),
        num(med(key, 'p50'), 2),
        num(med(key, 'p99'), 2),
        num(med(key, 'cpuPer1k'), 3),
        ratio(med(key, 'cpuPer1k'), med(ref, 'cpuPer1k')),
        ratio(med(key, 'callsPerSecond'), med(ref, 'callsPerSecond')),
      ];
    });
    const label = era === 'legacy' ? '2025-11-25 sessions' : '2026-07-28 (per request)';
    sections.push(
      `**${label}**, ${CLIENTS} concurrent clients, ${sizes.calls} measured calls per run\n\n` +
        table(
          ['system', 'calls/s', 'p50 ms', 'p99 ms', 'server CPU-s / 1k calls', 'CPU vs raw v2', 'calls/s vs raw v2'],
          rows,
        ),
    );
  }
  const ours = med('legacy:ours', 'cpuPer1k');
  const v1 = med('legacy:raw-v1', 'cpuPer1k');
  const fast = med('legacy:fastmcp', 'cpuPer1k');
  return {
    id: 'W1',
    headline: [
      { metric: 'legacy server CPU-s / 1k calls', value: ours, better: 'lower' },
      { metric: '2026 server CPU-s / 1k calls', value: med('modern:ours', 'cpuPer1k'), better: 'lower' },
    ],
    title: 'W1 HTTP tools/call',
    markdown: sections.join('\n\n'),
    targets: [
      {
        target: 'legacy HTTP server CPU-s per 1k calls within 1.1x of raw SDK v1 (through the dual-era router)',
        measured: `${num(ours, 3)} vs ${num(v1, 3)} s = ${ratio(ours, v1)}`,
        met: ours <= 1.1 * v1,
      },
      {
        target: 'legacy HTTP server CPU-s per 1k calls below fastmcp',
        measured: `${num(ours, 3)} vs ${num(fast, 3)} s = ${ratio(ours, fast)}`,
        met: ours < fast,
      },
    ],
  };
}
