// Cold start of two builds of the CLI (`serve --stdio -q docs/`), spawn -> `initialize` answer, interleaved
// (the order alternating per pair), so that a change worth a few ms shows beside the machine's drift. Prints
// the median of each and their ratio (B/A < 1: B starts faster). An A/A run (the same path twice) shows the noise.
//
//   node bench/cli-start-ab.mjs <A dist/cli/main.js> <B dist/cli/main.js> [pairs=40]
//
// Each spawn is bounded by 20 s, after which it is killed by its PID.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { INITIALIZE_LINE } from './lib/cold-server.mjs';
import { median } from './lib/stats.mjs';

const [a, b, pairs = '40'] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: <A dist/cli/main.js> <B dist/cli/main.js> [pairs]');
const DOCS = fileURLToPath(new URL('../docs', import.meta.url));

/** One spawn of `cli`: ms from spawn to the first byte of its answer. */
function once(cli) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'serve', '--stdio', '-q', DOCS], { stdio: ['pipe', 'pipe', 'ignore'] });
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    let ms;
    child.stdout.once('data', () => {
      ms = performance.now() - started;
      child.stdin.end(); // a stdio server exits when its stdin closes
    });
    child.once('exit', () => {
      clearTimeout(guard);
      if (ms === undefined) reject(new Error(`${cli} exited without answering`));
      else resolve(ms);
    });
    child.stdin.write(INITIALIZE_LINE);
  });
}

const times = { A: [], B: [] };
for (let pair = 0; pair < Number(pairs); pair += 1) {
  const order = pair % 2 ? ['A', 'B'] : ['B', 'A'];
  for (const which of order) times[which].push(await once(which === 'A' ? a : b));
}
const [ma, mb] = [median(times.A), median(times.B)];
process.stdout.write(`A ${ma.toFixed(1)} ms, B ${mb.toFixed(1)} ms, B/A ${(mb / ma).toFixed(3)}\n`);
