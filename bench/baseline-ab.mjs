/* global performance */
// This tree against a baseline checkout's build, `ours` only, interleaved in one run: W1 (HTTP
// tools/call, both eras), W2 (stdio tools/call) and W4's tools/list at 1,000 tools (legacy session),
// server CPU per request (ns-precise, lib/children.mjs) and the after/before ratios (> 1 is worse).
// Faster than bench/compare.mjs (no other systems), for gates of a few percent that need many rounds.
//   npm run build && node bench/baseline-ab.mjs --baseline <checkout> [--rounds 5] [--calls 2000] [--lists 200]
import path from 'node:path';
import process from 'node:process';
import { startChild } from './lib/children.mjs';
import { bodies, HttpDriver, legacyHeaders } from './lib/http-driver.mjs';
import { median, num } from './lib/stats.mjs';
import { measure as w1 } from './workloads/w1-http-calls.mjs';
import { measure as w2 } from './workloads/w2-stdio-calls.mjs';

const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const baseline = option('--baseline');
if (!baseline) throw new Error('usage: node bench/baseline-ab.mjs --baseline <built checkout> [--rounds N]');
process.env.BENCH_BASELINE_DIST = path.resolve(baseline, 'dist'); // for servers/ours-baseline.mjs
const rounds = Number(option('--rounds', 5));
const calls = Number(option('--calls', 2_000));
const lists = Number(option('--lists', 200));
const warmup = Math.min(500, Math.round(calls / 4));

/** W4's legacy tools/list at 1,000 tools: server CPU ms per list over `lists` lists after 20 unmeasured. */
async function w4List(system) {
  const child = await startChild(system, 'http', { tools: 1000 }, { hardTimeoutMs: 180_000 });
  const driver = new HttpDriver(child.port, 1);
  try {
    const headers = legacyHeaders(await driver.openSession());
    const list = async () => {
      const result = await driver.rpc(bodies.list(driver.nextId++), headers);
      if (result?.tools?.length !== 1000) throw new Error(`${system}: tools/list did not list 1000 tools`);
    };
    for (let i = 0; i < 20; i += 1) await list();
    const cpu0 = child.cpu();
    const t0 = performance.now();
    for (let i = 0; i < lists; i += 1) await list();
    return { cpuMs: ((child.cpu() - cpu0) / lists) * 1000, ms: (performance.now() - t0) / lists };
  } finally {
    driver.close();
    await child.kill();
  }
}

const cases = {
  'W1 legacy, CPU-s per 1k calls': async (system) => (await w1(system, 'legacy', { warmup, calls })).cpuPer1k,
  'W1 2026-07-28, CPU-s per 1k calls': async (system) => (await w1(system, 'modern', { warmup, calls })).cpuPer1k,
  'W2 stdio, CPU-s per 1k calls': async (system) => (await w2(system, { warmup, calls })).cpuPer1k,
  'W4 tools/list at 1,000 tools, CPU ms per list': async (system) => (await w4List(system)).cpuMs,
};
const systems = ['ours', 'ours-baseline'];
const results = {};
for (let round = 0; round < rounds; round += 1) {
  for (const [name, run] of Object.entries(cases)) {
    for (const system of round % 2 === 0 ? systems : [...systems].reverse()) {
      const value = await run(system);
      (results[`${name}|${system}`] ??= []).push(value);
      process.stderr.write(`round ${round + 1}/${rounds} ${name} ${system}: ${num(value, 3)}\n`);
    }
  }
}
process.stdout.write(`\nthis tree against ${baseline}, medians of ${rounds} interleaved rounds\n\n`);
process.stdout.write('| case | this tree | baseline | after/before | per-round ratios |\n|---|---|---|---|---|\n');
for (const name of Object.keys(cases)) {
  const [after, before] = systems.map((system) => results[`${name}|${system}`]);
  const perRound = after.map((value, i) => (value / before[i]).toFixed(2)).join(' ');
  const ratio = median(after) / median(before);
  process.stdout.write(
    `| ${name} | ${num(median(after), 3)} | ${num(median(before), 3)} | ${ratio.toFixed(3)}x | ${perRound} |\n`,
  );
}
