// Instructions of one cold start (issue #30, W0): a server of bench/servers/cold/ (or the CLI) under
// `valgrind --tool=callgrind`, from spawn to its `initialize` answer and then stdin closed, so the
// figure is repeatable on a loaded machine where CPU time is not. Needs valgrind.
//
//   node bench/callgrind-cold.mjs <ours-root|raw-v2|raw-v1|cli> [runs=1]
//
// Prints the median instruction count of the runs (each run's count too), all threads and the main thread
// alone (V8's concurrent marking and compiling run beside it). Each run is bounded by
// a 400 s timeout, after which the child is killed by its PID. CALLGRIND_KEEP=1 keeps the output file
// (for callgrind_annotate --inclusive=yes). CALLGRIND_NODE_ARGS passes Node flags, space-separated:
// `--no-incremental-marking` keeps V8 from starting a marking cycle just before the answer in some runs and
// not others, which spreads the library server's counts by ~100 M (docs/performance.md, twelfth round).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { distUrl } from './lib/dist.mjs';
import { coldServer, INITIALIZE_LINE } from './lib/cold-server.mjs';

const [system, runs = '1'] = process.argv.slice(2);
const COLD = ['ours-root', 'raw-v2', 'raw-v1'];
if (!COLD.includes(system) && system !== 'cli') throw new Error(`usage: <${COLD.join('|')}|cli> [runs]`);
const DOCS = fileURLToPath(new URL('../docs', import.meta.url));
const argv =
  system === 'cli' ? [fileURLToPath(distUrl('cli/main.js')), 'serve', '--stdio', '-q', DOCS] : [coldServer(system)];

const NODE_ARGS = process.env.CALLGRIND_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

async function once() {
  const out = `${tmpdir()}/callgrind-cold-${system}-${process.pid}.out`;
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--dump-instr=no',
      '--separate-threads=yes',
      `--callgrind-out-file=${out}`,
      'node',
      ...NODE_ARGS,
      ...argv,
    ],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const timer = setTimeout(() => child.kill('SIGKILL'), 400_000);
  child.stdin.write(INITIALIZE_LINE);
  let text = '';
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (errors += chunk));
  await new Promise((resolve, reject) => {
    child.once('exit', () => reject(new Error(`${system} exited before it answered:\n${errors.slice(-2000)}`)));
    child.stdout.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve();
    });
  });
  child.stdin.end();
  await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
  clearTimeout(timer);
  // One file per thread (`<out>-01` is the main thread): V8's concurrent marking and compiling run on
  // others, in parallel with the main thread on a machine with a core to spare.
  const files = readdirSync(tmpdir())
    .filter((name) => name.startsWith(`${basename(out)}-`))
    .map((name) => `${tmpdir()}/${name}`)
    .sort();
  const count = (file) => Number(readFileSync(file, 'utf8').match(/^(?:totals|summary): (\d+)/m)?.[1]);
  const threads = files.map(count);
  if (process.env.CALLGRIND_KEEP) process.stderr.write(`kept ${files.join(' ')}\n`);
  else for (const file of files) rmSync(file, { force: true });
  return { main: threads[0], all: threads.reduce((sum, n) => sum + n, 0) };
}

const runsDone = [];
for (let i = 0; i < Number(runs); i++) runsDone.push(await once());
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const m = (n) => `${(n / 1e6).toFixed(0)} M`;
const main = runsDone.map((run) => run.main);
const all = runsDone.map((run) => run.all);
process.stdout.write(
  `${system}: ${m(median(all))} instructions, main thread ${m(median(main))} ` +
    `(runs: ${all.map(m).join(', ')}; main thread: ${main.map(m).join(', ')})\n`,
);
