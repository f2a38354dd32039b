/* global performance, setTimeout */
// W2 stdio tools/call: sequential calls from one client; calls/s, p50, spawn+initialize time.
import { startChild } from '../lib/children.mjs';
import { median, num, percentile, ratio, rotate, table } from '../lib/stats.mjs';
import { StdioDriver } from '../lib/stdio-driver.mjs';

const SYSTEMS = ['ours', 'raw-v2', 'raw-v1', 'fastmcp'];

export async function measure(system, { warmup, calls }) {
  const t0 = performance.now();
  const child = await startChild(system, 'stdio', { tools: 1 }, { hardTimeoutMs: 120_000 });
  try {
    const driver = new StdioDriver(child);
    await driver.initialize();
    const startup = performance.now() - t0;
    for (let i = 0; i < warmup; i += 1) await driver.call();
    const latencies = [];
    const cpu0 = child.cpu();
    const started = performance.now();
    for (let i = 0; i < calls; i += 1) {
      const start = performance.now();
      const result = await driver.call();
      latencies.push(performance.now() - start);
      if (result?.content?.[0]?.text !== 'hello') throw new Error(`${system}: unexpected result`);
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      callsPerSecond: calls / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      cpuPer1k: ((child.cpu() - cpu0) / calls) * 1000,
      startup,
    };
  } finally {
    child.stdin.end();
    await Promise.race([child.exit, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    await child.kill();
  }
}

export async function run({ quick, rounds, log }) {
  const sizes = quick ? { warmup: 1_000, calls: 2_000 } : { warmup: 2_000, calls: 6_000 };
  const results = {};
  for (let round = 0; round < rounds; round += 1) {
    for (const system of rotate(SYSTEMS, round)) {
      (results[system] ??= []).push(await measure(system, sizes));
      log(`W2 round ${round + 1}/${rounds} ${system}: ${num(results[system].at(-1).callsPerSecond, 0)} calls/s`);
    }
  }
  const med = (system, field) => median(results[system].map((r) => r[field]));
  const rows = SYSTEMS.map((system) => [
    system,
    num(med(system, 'callsPerSecond'), 0),
    ratio(med(system, 'callsPerSecond'), med('raw-v2', 'callsPerSecond')),
    num(med(system, 'p50'), 3),
    num(med(system, 'p99'), 3),
    num(med(system, 'cpuPer1k'), 3),
    num(med(system, 'startup'), 0),
  ]);
  const ours = med('ours', 'callsPerSecond');
  const raw = med('raw-v2', 'callsPerSecond');
  return {
    id: 'W2',
    headline: [
      { metric: 'calls/s', value: ours, better: 'higher' },
      { metric: 'server CPU-s / 1k calls', value: med('ours', 'cpuPer1k'), better: 'lower' },
    ],
    title: 'W2 stdio tools/call',
    markdown:
      `One client, sequential calls (2025-11-25 handshake), ${sizes.calls} measured calls per run\n\n` +
      table(
        [
          'system',
          'calls/s',
          'calls/s vs raw v2',
          'p50 ms',
          'p99 ms',
          'server CPU-s / 1k calls',
          'spawn + initialize ms',
        ],
        rows,
      ),
    targets: [
      {
        target: 'stdio calls/s at least raw SDK v2',
        measured: `${num(ours, 0)} vs ${num(raw, 0)} calls/s = ${ratio(ours, raw)}`,
        met: ours >= raw,
      },
    ],
  };
}
