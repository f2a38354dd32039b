// What the toolkit's own code costs a cold start (issue #30, W0): spawn -> first answer for a process that
// only imports zod and the SDK's server (`import-sdk`) against one that imports zod and the toolkit's package
// root (`import-toolkit`, which loads the same SDK modules), both answering a canned line. The difference is
// the compile and evaluation of the toolkit's chunks, apart from anything a server then does.
//
//   node bench/import-cost.mjs [spawns=30]              this tree's dist/ (npm run build first)
//   MCP_TOOLKIT_DIST=<checkout>/dist node bench/import-cost.mjs   another build
//
// Spawns alternate in order, pair by pair. Prints the median wall ms and main-thread CPU ms (Linux:
// /proc/<pid>/task/<pid>/schedstat, to the ns) of each, and the toolkit's cost in ms and as a ratio.
// Each spawn is bounded by 20 s, after which it is killed by its PID.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { mainThreadCpuSeconds } from './lib/children.mjs';
import { coldServer } from './lib/cold-server.mjs';
import { median, num, ratio, table } from './lib/stats.mjs';

const spawns = Number(process.argv[2] ?? 30);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SYSTEMS = ['import-sdk', 'import-toolkit'].map((name) => ({ name, file: coldServer(name), wall: [], cpu: [] }));

function once(file) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not answer within 20 s`));
    }, 20_000);
    child.once('exit', (code, signal) => {
      clearTimeout(guard);
      reject(new Error(`${file} exited (${signal ?? code}) before it answered`));
    });
    child.stdout.once('data', () => {
      const wall = performance.now() - started;
      const seconds = mainThreadCpuSeconds(child.pid);
      const cpu = seconds === undefined ? undefined : seconds * 1000;
      clearTimeout(guard);
      child.kill('SIGKILL');
      resolve({ wall, cpu });
    });
    child.stdin.write('{}\n');
  });
}

for (let i = 0; i < spawns; i++) {
  for (const system of i % 2 ? [...SYSTEMS].reverse() : SYSTEMS) {
    const { wall, cpu } = await once(system.file);
    system.wall.push(wall);
    if (cpu !== undefined) system.cpu.push(cpu);
  }
}

const [sdk, toolkit] = SYSTEMS.map((system) => ({
  ...system,
  wallMs: median(system.wall),
  cpuMs: system.cpu.length ? median(system.cpu) : undefined,
}));
const cell = (value) => (value === undefined ? '-' : num(value));
process.stdout.write(
  `${table(
    ['imports', 'wall ms', 'main-thread CPU ms'],
    [
      ['zod + SDK server', cell(sdk.wallMs), cell(sdk.cpuMs)],
      ['zod + toolkit root', cell(toolkit.wallMs), cell(toolkit.cpuMs)],
      [
        'toolkit code',
        `+${num(toolkit.wallMs - sdk.wallMs)} (${ratio(toolkit.wallMs, sdk.wallMs)})`,
        sdk.cpuMs === undefined ? '-' : `+${num(toolkit.cpuMs - sdk.cpuMs)} (${ratio(toolkit.cpuMs, sdk.cpuMs)})`,
      ],
    ],
  )}\n(medians of ${spawns} spawns each)\n`,
);
