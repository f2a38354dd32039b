// Instructions per stdio tools/call (W2's shape: one client, sequential calls): one server of
// bench/servers/ under `valgrind --tool=callgrind`, counting switched on after the warm-up, so the
// figure is repeatable on a loaded machine where CPU time is not. Needs valgrind.
//
//   node bench/callgrind-stdio.mjs <system> [calls=2000]          floor, raw-v1, raw-v2, ours, ...
//
// MCP_TOOLKIT_DIST=<checkout>/dist measures another build of the toolkit (see lib/dist.mjs);
// CALLGRIND_KEEP=<file> keeps the profile there (for callgrind_annotate) instead of deleting it.
// CALLGRIND_ERA=modern makes the calls 2026-07-28 requests (no handshake, `_meta` on each) instead of 2025-11-25.
// CALLGRIND_WARMUP=<n> sets the calls made before counting starts (default 1000). Under valgrind V8's
// optimizing compiler thread runs late: after 1,000 calls about half of a 2,000-call window is still
// TurboFan compiling the hot path (a fixed cost, the same for every call count), which a warm-up of
// 5,000 leaves out (docs/performance.md, "stdio per tools/call, fourth round": both figures).
// (With --serve <system> it is the server itself, on its stdin/stdout.)
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { StdioDriver } from './lib/stdio-driver.mjs';

const args = process.argv.slice(2);
if (args[0] === '--serve') {
  await (await import(`./servers/${args[1]}.mjs`)).startStdio({ tools: 1 });
} else {
  const [system, calls = '2000'] = args;
  if (!system) throw new Error('usage: <system> [calls]');
  const out = `${tmpdir()}/callgrind-stdio-${system}-${process.pid}.out`;
  const self = fileURLToPath(import.meta.url);
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, 'node', self, '--serve', system],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
  process.on('exit', () => child.kill('SIGKILL')); // no valgrind server left behind if this run fails
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const guard = setTimeout(() => child.kill('SIGKILL'), 15 * 60_000); // bounded, whatever happens
  const driver = new StdioDriver(child, process.env.CALLGRIND_ERA === 'modern' ? 'modern' : 'legacy');
  await driver.initialize();
  const warmup = Number(process.env.CALLGRIND_WARMUP ?? 1000);
  for (let i = 0; i < warmup; i += 1) await driver.call();
  execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
  for (let i = 0; i < Number(calls); i += 1) await driver.call();
  execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], { stdio: 'ignore' });
  child.stdin.end(); // a stdio server exits when its stdin closes
  await exited;
  clearTimeout(guard);
  const totals = readFileSync(out, 'utf8').match(/^totals: (\d+)/m);
  if (process.env.CALLGRIND_KEEP) renameSync(out, process.env.CALLGRIND_KEEP);
  else rmSync(out, { force: true });
  process.stdout.write(
    `${system} stdio: ${(Number(totals?.[1]) / Number(calls) / 1000).toFixed(0)} k instructions per tools/call\n`,
  );
}
