/* global URL, setTimeout, clearTimeout */
// The fetch handler (mcp-toolkit/fetch) against HttpMcpServer: 2026-07-28 tools/call calls/s, 16
// concurrent clients, interleaved in one run (issue 28: the fetch handler under Node through
// @hono/node-server must reach at least 0.9x HttpMcpServer's calls/s). Bun's figure is printed beside.
//
//   npm run bench:fetch                               3 rounds of 4,000 calls
//   npm run bench:fetch -- --rounds 1 --calls 300 --warmup 100   a quick check
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { cpuSeconds } from './lib/children.mjs';
import { median, num, ratio, rotate, table } from './lib/stats.mjs';
import { measure } from './workloads/w1-http-calls.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const rounds = option('--rounds', 3);
const sizes = { warmup: option('--warmup', 1_000), calls: option('--calls', 4_000) };
const root = fileURLToPath(new URL('..', import.meta.url));
const bunBinary = `${root}node_modules/.bin/bun`;

/** A Bun process serving bench/servers/bun-fetch.mjs, as `{ port, cpu(), kill() }` (killed by PID). */
function startBun() {
  if (!existsSync(bunBinary)) throw new Error('bun is not installed: run npm install (a devDependency)');
  const child = spawn(bunBinary, [`${root}bench/servers/bun-fetch.mjs`], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bun did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`bun exited (${code})`)));
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const port = /PORT (\d+)/.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolve({
        port: Number(port),
        cpu: () => cpuSeconds(child.pid),
        kill: () =>
          new Promise((done) => {
            child.once('exit', done);
            process.kill(child.pid, 'SIGKILL');
          }),
      });
    });
  });
}

const SYSTEMS = {
  HttpMcpServer: () => measure('ours', 'modern', sizes),
  'toFetchHandler on Node (@hono/node-server)': () => measure('ours-fetch', 'modern', sizes),
  'toFetchHandler on Bun (Bun.serve)': () => measure('bun-fetch', 'modern', sizes, startBun),
};

const results = {};
for (let round = 0; round < rounds; round += 1) {
  for (const name of rotate(Object.keys(SYSTEMS), round)) {
    (results[name] ??= []).push(await SYSTEMS[name]());
    const last = results[name].at(-1);
    process.stderr.write(`round ${round + 1}/${rounds} ${name}: ${num(last.callsPerSecond, 0)} calls/s\n`);
  }
}
const med = (name, field) => median(results[name].map((result) => result[field]));
const reference = med('HttpMcpServer', 'callsPerSecond');
const rows = Object.keys(SYSTEMS).map((name) => [
  name,
  num(med(name, 'callsPerSecond'), 0),
  num(med(name, 'p50'), 2),
  num(med(name, 'p99'), 2),
  num(med(name, 'cpuPer1k'), 3),
  ratio(med(name, 'callsPerSecond'), reference),
]);
process.stdout.write(
  `2026-07-28 tools/call, 16 concurrent clients, ${sizes.calls} calls per run, median of ${rounds} round(s)\n\n` +
    table(['system', 'calls/s', 'p50 ms', 'p99 ms', 'server CPU-s / 1k calls', 'calls/s vs HttpMcpServer'], rows) +
    '\n',
);
const fetchRatio = med('toFetchHandler on Node (@hono/node-server)', 'callsPerSecond') / reference;
process.stdout.write(
  `\nfetch handler on Node / HttpMcpServer: ${fetchRatio.toFixed(2)}x (target >= 0.9x: ${fetchRatio >= 0.9 ? 'met' : 'NOT met'})\n`,
);
