// Does mounting the admin router (with call statistics on) slow tool calls down? W1 (HTTP, both
// eras) and W2 (stdio) for `ours` and `ours-admin`, interleaved over rounds; medians compared.
//   npm run build && node bench/admin-overhead.mjs [--rounds 3] [--calls 2000]
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
const cases = {
  'W1 legacy': (system) => w1(system, 'legacy', { warmup: 500, calls }),
  'W1 modern': (system) => w1(system, 'modern', { warmup: 500, calls }),
  'W2 stdio': (system) => w2(system, { warmup: 200, calls: Math.round(calls / 2) }),
};
const results = {};
for (let round = 0; round < rounds; round += 1) {
  for (const [name, run] of Object.entries(cases)) {
    const order = round % 2 === 0 ? ['ours', 'ours-admin'] : ['ours-admin', 'ours'];
    for (const system of order) {
      const result = await run(system);
      (results[`${name}|${system}`] ??= []).push(result);
      process.stderr.write(`round ${round + 1} ${name} ${system}: ${num(result.callsPerSecond, 0)} calls/s\n`);
    }
  }
}
process.stdout.write(
  '| case | calls/s (off) | calls/s (admin + stats) | change | p50 ms off / on | CPU-s per 1k off / on |\n|---|---|---|---|---|---|\n',
);
for (const name of Object.keys(cases)) {
  const off = results[`${name}|ours`];
  const on = results[`${name}|ours-admin`];
  const m = (list, key) => median(list.map((entry) => entry[key]));
  const change = ((m(on, 'callsPerSecond') / m(off, 'callsPerSecond') - 1) * 100).toFixed(1);
  process.stdout.write(
    `| ${name} | ${num(m(off, 'callsPerSecond'), 0)} | ${num(m(on, 'callsPerSecond'), 0)} | ${change}% | ` +
      `${num(m(off, 'p50'), 2)} / ${num(m(on, 'p50'), 2)} | ${num(m(off, 'cpuPer1k'), 3)} / ${num(m(on, 'cpuPer1k'), 3)} |\n`,
  );
}
