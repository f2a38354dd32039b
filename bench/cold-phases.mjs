// Where a W0 cold start goes after the imports (issue #30): the one-tool library server and the raw SDK v2 server,
// each with `performance.now()` marks (bench/servers/cold/*-phases.mjs): when its imports were done (ms since the
// process started: Node's start plus loading zod, the SDK and, for ours, the toolkit), then construct,
// `registerTool`, `start()` and the rest until the `initialize` answer. The raw server builds its McpServer in
// serveStdio's factory, after the first message is in: that time is inside its last phase, and printed apart.
//
//   node bench/cold-phases.mjs [spawns=20]      this tree's dist/ (npm run build first)
//
// Spawns alternate pair by pair; each is bounded by 20 s and then killed by its PID. Prints medians.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { INITIALIZE_LINE } from './lib/cold-server.mjs';
import { median, num, table } from './lib/stats.mjs';

const spawns = Number(process.argv[2] ?? 20);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SYSTEMS = ['ours-root-phases', 'raw-v2-phases'].map((name) => ({
  name,
  file: fileURLToPath(new URL(`servers/cold/${name}.mjs`, import.meta.url)),
  runs: [],
}));

function once(file) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not answer within 20 s`));
    }, 20_000);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
      const line = /^PHASES (.*)$/m.exec(stderr);
      if (!line) return;
      clearTimeout(guard);
      child.kill('SIGKILL');
      const factory = /^FACTORY (.*)$/m.exec(stderr);
      resolve({ ...JSON.parse(line[1]), ...(factory && { factoryMs: Number(factory[1]) }) });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(guard);
      reject(new Error(`${file} exited (${signal ?? code}) before it answered: ${stderr}`));
    });
    child.stdin.write(INITIALIZE_LINE);
  });
}

for (let i = 0; i < spawns; i++) {
  for (const system of i % 2 ? [...SYSTEMS].reverse() : SYSTEMS) system.runs.push(await once(system.file));
}

const PHASES = ['importsDoneMs', 'constructMs', 'registerToolMs', 'startMs', 'toAnswerMs', 'factoryMs'];
const cell = (runs, phase) => {
  const values = runs.map((run) => run[phase]).filter((value) => value !== undefined);
  return values.length ? num(median(values), 2) : '-';
};
const total = (runs) => num(median(runs.map((run) => PHASES.slice(0, 5).reduce((sum, p) => sum + (run[p] ?? 0), 0))));
process.stdout.write(
  `${table(
    ['server', 'imports done', 'construct', 'registerTool', 'start()', 'to the answer', '(factory)', 'total'],
    SYSTEMS.map(({ name, runs }) => [name, ...PHASES.map((phase) => cell(runs, phase)), total(runs)]),
  )}\n(ms, medians of ${spawns} spawns each, Node ${process.version})\n`,
);
