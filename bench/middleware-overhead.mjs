// What does middleware cost on tools/call? Server CPU per 1,000 calls of `ours` (no middleware)
// and `ours-middleware` (three pass-through middleware via server.use()), W1 (HTTP, both eras) and
// W2 (stdio), interleaved over rounds; medians compared and the ratios printed.
//   npm run build && node bench/middleware-overhead.mjs [--rounds 3] [--calls 2000]
import process from 'node:process';
import { median, num } from './lib/stats.mjs';
import { measure as w1 } from './workloads/w1-http-calls.mjs';
import { measure as w2 } from './workloads/w2-stdio-calls.mjs';

const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const rounds = option('--rounds', 3);
const calls = option('--calls', 2_000);
const warmup = Math.min(500, Math.round(calls / 4));
const cases = {
  'W1 legacy': (system) => w1(system, 'legacy', { warmup, calls }),
  'W1 modern': (system) => w1(system, 'modern', { warmup, calls }),
  'W2 stdio': (system) => w2(system, { warmup, calls: Math.round(calls / 2) }),
};
const systems = ['ours', 'ours-middleware'];
const results = {};
for (let round = 0; round < rounds; round += 1) {
  for (const [name, run] of Object.entries(cases)) {
    for (const system of round % 2 === 0 ? systems : [...systems].reverse()) {
      const result = await run(system);
      (results[`${name}|${system}`] ??= []).push(result);
      process.stderr.write(`round ${round + 1} ${name} ${system}: ${num(result.cpuPer1k, 3)} CPU-s per 1k\n`);
    }
  }
}
process.stdout.write(
  '| case | CPU-s per 1k (none) | CPU-s per 1k (3 pass-through) | CPU ratio | calls/s none / 3 |\n|---|---|---|---|---|\n',
);
for (const name of Object.keys(cases)) {
  const m = (system, key) => median(results[`${name}|${system}`].map((entry) => entry[key]));
  const ratio = m('ours-middleware', 'cpuPer1k') / m('ours', 'cpuPer1k');
  process.stdout.write(
    `| ${name} | ${num(m('ours', 'cpuPer1k'), 3)} | ${num(m('ours-middleware', 'cpuPer1k'), 3)} | ${ratio.toFixed(3)} | ` +
      `${num(m('ours', 'callsPerSecond'), 0)} / ${num(m('ours-middleware', 'callsPerSecond'), 0)} |\n`,
  );
}
