// Instructions per HTTP tools/call (issue #30): one server of bench/servers/ under
// `valgrind --tool=callgrind`, counting switched on after the warm-up, so the figure is repeatable
// on a loaded machine where CPU time is not. Needs valgrind (Debian: apt-get install valgrind).
//
//   node bench/callgrind-http.mjs <system> <legacy|modern> [calls=1000]     e.g. ours modern, floor legacy
//   node bench/callgrind-http.mjs <system> <legacy|modern> [lists=200] --list [tools=1000]
//                                   instructions per tools/list of a server with that many tools (W4)
//
// (With --serve <system> it is the server itself: it prints its port and exits on SIGTERM.)
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { bodies, HttpDriver, legacyHeaders, modernHeaders } from './lib/http-driver.mjs';
import { runConcurrent } from './lib/stats.mjs';

const args = process.argv.slice(2);
const listAt = args.indexOf('--list');
const tools = listAt < 0 ? 1 : Number(args[listAt + 1] ?? 1000);
if (listAt >= 0) args.splice(listAt, 2);
if (args[0] === '--serve') {
  const control = await (await import(`./servers/${args[1]}.mjs`)).startHttp({ tools: Number(args[2] ?? 1) });
  process.on('SIGTERM', () => process.exit(0));
  process.stdout.write(`${control.port}\n`);
} else {
  const [system, era, calls = listAt < 0 ? '1000' : '200'] = args;
  const what = listAt < 0 ? 'tools/call' : `tools/list at ${tools} tools`;
  if (!system || !['legacy', 'modern'].includes(era)) throw new Error('usage: <system> <legacy|modern> [calls]');
  const out = `${tmpdir()}/callgrind-${system}-${era}-${process.pid}.out`;
  const self = fileURLToPath(import.meta.url);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${out}`,
      'node',
      self,
      '--serve',
      system,
      `${tools}`,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
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
  const send = (worker) => {
    if (listAt >= 0) {
      return era === 'legacy'
        ? driver.rpc(bodies.list(id++), legacyHeaders(sessions[worker]))
        : driver.rpc(bodies.modernList(id++), modernHeaders('tools/list'));
    }
    return era === 'legacy'
      ? driver.rpc(bodies.call(id++), legacyHeaders(sessions[worker]))
      : driver.rpc(bodies.modernCall(id++), modernHeaders('tools/call', 'echo'));
  };
  await runConcurrent(4, 400, send);
  execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
  driver.close();
  driver = new HttpDriver(port, 4); // keep-alive sockets may have idled out while valgrind switched on
  await runConcurrent(4, Number(calls), send);
  execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], { stdio: 'ignore' });
  driver.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const totals = readFileSync(out, 'utf8').match(/^totals: (\d+)/m);
  rmSync(out, { force: true });
  process.stdout.write(
    `${system} ${era}: ${(Number(totals?.[1]) / Number(calls) / 1000).toFixed(0)} k instructions per ${what}\n`,
  );
}
