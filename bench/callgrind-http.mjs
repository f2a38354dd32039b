// Instructions per HTTP tools/call (issue #30): one server of bench/servers/ under
// `valgrind --tool=callgrind`, counting switched on after the warm-up, so the figure is repeatable
// on a loaded machine where CPU time is not. Needs valgrind (Debian: apt-get install valgrind).
//
//   node bench/callgrind-http.mjs <system> <legacy|modern> [calls=1000] [--tools N] [--list]
//
// e.g. `ours modern`, `floor legacy`; `--tools 1000 --list 200` counts W4's tools/list at 1,000 tools.
// MCP_TOOLKIT_DIST=<checkout>/dist measures another build of the toolkit (see lib/dist.mjs);
// CALLGRIND_KEEP=<file> keeps the profile there (for callgrind_annotate) instead of deleting it.
// CALLGRIND_WARMUP=<n> sets the requests made before counting starts (default 400, 100 with --list). Under valgrind
// V8 is still optimizing after the default: 400 -> 6,000 took ours legacy from 2,593 k to 1,324 k per call, the
// difference being its compiler threads (split them off with bench/callgrind-split.mjs).
// (With --serve <system> [tools] it is the server itself: it prints its port and exits on SIGTERM.)
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { bodies, HttpDriver, legacyHeaders, modernHeaders } from './lib/http-driver.mjs';
import { runConcurrent } from './lib/stats.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.indexOf(name);
const toolsAt = flag('--tools');
const tools = toolsAt >= 0 ? argv.splice(toolsAt, 2)[1] : '1';
const listAt = flag('--list');
const list = listAt >= 0 && argv.splice(listAt, 1).length > 0;
const args = argv;
if (args[0] === '--serve') {
  const control = await (await import(`./servers/${args[1]}.mjs`)).startHttp({ tools: Number(args[2] ?? 1) });
  process.on('SIGTERM', () => process.exit(0));
  process.stdout.write(`${control.port}\n`);
} else {
  const [system, era, calls = '1000'] = args;
  if (!system || !['legacy', 'modern'].includes(era)) throw new Error('usage: <system> <legacy|modern> [calls]');
  const out = `${tmpdir()}/callgrind-${system}-${era}-${process.pid}.out`;
  const self = fileURLToPath(import.meta.url);
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, 'node', self, '--serve', system, tools],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  process.on('exit', () => child.kill('SIGKILL')); // no valgrind server left behind if this run fails
  let text = '';
  const port = await new Promise((resolve, reject) => {
    child.once('exit', () => reject(new Error(`${system} exited before it served (is valgrind installed?)`)));
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = text.match(/^(\d+)\n/);
      if (match) resolve(Number(match[1]));
    });
  });
  let driver = new HttpDriver(port, 4);
  const sessions = era === 'legacy' ? await Promise.all([1, 2, 3, 4].map(() => driver.openSession())) : [];
  let id = 100;
  const method = list ? 'tools/list' : 'tools/call';
  const body = (n) =>
    list
      ? era === 'legacy'
        ? bodies.list(n)
        : bodies.modernList(n)
      : era === 'legacy'
        ? bodies.call(n)
        : bodies.modernCall(n);
  const headers = (worker) =>
    era === 'legacy' ? legacyHeaders(sessions[worker]) : modernHeaders(method, !list && 'echo');
  // Under heavy load (load average 15+) runs ended with ECONNRESET on a keep-alive socket (likely closed by
  // the valgrind-slowed server's 5 s idle timeout as the next request went out): such a request is sent again.
  const send = (worker) => {
    const n = id++;
    return driver.rpc(body(n), headers(worker)).catch((error) => {
      if (error?.code !== 'ECONNRESET') throw error;
      return driver.rpc(body(n), headers(worker));
    });
  };
  await runConcurrent(4, Number(process.env.CALLGRIND_WARMUP ?? (list ? 100 : 400)), send);
  execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
  driver.close();
  driver = new HttpDriver(port, 4); // keep-alive sockets may have idled out while valgrind switched on
  await runConcurrent(4, Number(calls), send);
  execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], { stdio: 'ignore' });
  driver.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const totals = readFileSync(out, 'utf8').match(/^totals: (\d+)/m);
  if (process.env.CALLGRIND_KEEP)
    renameSync(out, process.env.CALLGRIND_KEEP); // for callgrind_annotate
  else rmSync(out, { force: true });
  process.stdout.write(
    `${system} ${era}, ${tools} tools: ${(Number(totals?.[1]) / Number(calls) / 1000).toFixed(0)} k instructions per ${method}\n`,
  );
}
