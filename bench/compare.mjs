/* global URL */
// This tree against a baseline build of the toolkit (e.g. main before a change), in the same harness:
// every workload round runs twice, once with this tree's dist/ and once with <checkout>/dist (order
// alternating per round), each as one `bench/run.mjs --only Wn --rounds 1` child with
// MCP_TOOLKIT_DIST pointing at the build it measures. Prints each workload's headline figures for
// "mcp-toolkit" and "mcp-toolkit (baseline)" (medians over the rounds) and their after/before ratio,
// oriented so that > 1.00x is worse (slower, more CPU, more memory).
//
//   node bench/compare.mjs --baseline /work/wt/base [--quick] [--only W1,W2] [--rounds N]
//
// The baseline checkout must be built (`npm ci && npm run build` there); the bench harness
// (bench/servers, bench/workloads) is always this tree's.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { median, num, table } from './lib/stats.mjs';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const baselineDir = option('--baseline');
const quick = args.includes('--quick');
const WORKLOADS = ['W0', 'W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7'];
const only = option('--only')?.toUpperCase().split(',') ?? WORKLOADS;
const rounds = Number(option('--rounds') ?? (quick ? 2 : 3));
const baselineDist = baselineDir && path.resolve(baselineDir, 'dist');
if (!baselineDist || !existsSync(path.join(baselineDist, 'index.js'))) {
  process.stderr.write(
    'usage: node bench/compare.mjs --baseline <built checkout> [--quick] [--only W1,W2] [--rounds N]\n',
  );
  process.exit(2);
}
const RUN = fileURLToPath(new URL('./run.mjs', import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'mcp-toolkit-compare-'));
const log = (text) => process.stderr.write(`[compare] ${text}\n`);

/** Runs one round of `id` against `dist` (undefined: this tree); returns its headline figures. */
function runOnce(id, dist, round) {
  const json = path.join(tmp, `${id}-${round}-${dist ? 'baseline' : 'tree'}.json`);
  const env = { ...process.env };
  if (dist) env.MCP_TOOLKIT_DIST = dist;
  else delete env.MCP_TOOLKIT_DIST;
  const runArgs = [RUN, '--only', id, '--rounds', '1', '--no-write', '--json', json, ...(quick ? ['--quick'] : [])];
  const child = spawnSync(process.execPath, runArgs, {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 20 * 60_000,
  });
  if (child.status !== 0) throw new Error(`${id} (${dist ?? 'this tree'}) exited with ${child.status ?? child.signal}`);
  return JSON.parse(readFileSync(json, 'utf8'))[0]?.headline ?? [];
}

const rows = [];
try {
  for (const id of WORKLOADS.filter((w) => only.includes(w))) {
    const figures = { tree: [], baseline: [] };
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? ['tree', 'baseline'] : ['baseline', 'tree'];
      for (const which of order) {
        log(`${id} round ${round + 1}/${rounds}: ${which === 'tree' ? 'mcp-toolkit' : 'mcp-toolkit (baseline)'}`);
        figures[which].push(runOnce(id, which === 'baseline' ? baselineDist : undefined, round));
      }
    }
    for (const [i, { metric, better }] of figures.tree[0].entries()) {
      const after = median(figures.tree.map((h) => h[i].value));
      const before = median(figures.baseline.map((h) => h[i]?.value));
      const worse = better === 'higher' ? before / after : after / before;
      rows.push([id, metric, num(after, 3), num(before, 3), `${num(worse, 3)}x`]);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.stdout.write(
  `\nmcp-toolkit (this tree) against mcp-toolkit (baseline: ${baselineDir}), medians of ${rounds} interleaved ` +
    `round(s)${quick ? ', --quick sizes' : ''}; "after/before" > 1.00x means this tree is worse\n\n` +
    `${table(['workload', 'figure', 'mcp-toolkit', 'mcp-toolkit (baseline)', 'after/before'], rows)}\n`,
);
