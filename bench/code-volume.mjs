// What the package root's own code costs a cold start by its size (issue #30, W0), in three parts:
//  1. the code `import 'mcp-toolkit'` loads: dist/index.js and every chunk it imports statically, in bytes;
//  2. how much of it the W0 one-tool stdio server runs before its first answer (V8 coverage: the bytes inside
//     functions that were never called);
//  3. what loading a byte of code costs when none of it runs: `import()` of a module holding the same code inside a
//     function that is never called, against an empty module, each in a fresh process, alternating (medians).
// V8 still scans and pre-parses code it never runs; code that runs is compiled in full on top of that.
//
//   npm run build && node bench/code-volume.mjs [spawns=20]
//   MCP_TOOLKIT_DIST=<checkout>/dist node bench/code-volume.mjs   another build
//
// Every child is bounded by 20 s, after which it is killed by its PID.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseAst } from 'rolldown/parseAst';
import { coldServer, INITIALIZE_LINE } from './lib/cold-server.mjs';
import { distUrl } from './lib/dist.mjs';
import { median, num, table } from './lib/stats.mjs';

const spawns = Number(process.argv[2] ?? 20);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'code-volume-'));
process.once('exit', () => rmSync(work, { recursive: true, force: true }));

/** The files `entry` loads statically (its relative `import`/`export ... from`, transitively), with their ASTs. */
function staticGraph(entry) {
  const files = new Map();
  const visit = (file) => {
    if (files.has(file)) return;
    const source = readFileSync(file, 'utf8');
    const ast = parseAst(source);
    files.set(file, { source, ast });
    for (const node of ast.body) {
      const from = node.source?.value;
      if (typeof from === 'string' && from.startsWith('.')) visit(path.resolve(path.dirname(file), from));
    }
  };
  visit(entry);
  return files;
}

/** The bytes of each file that lie in functions the run never called (count 0), from a NODE_V8_COVERAGE folder. */
function neverCalledBytes(coverageDir, files) {
  const result = new Map();
  for (const name of readdirSync(coverageDir)) {
    for (const script of JSON.parse(readFileSync(path.join(coverageDir, name), 'utf8')).result) {
      if (!script.url.startsWith('file:')) continue;
      const file = fileURLToPath(script.url);
      if (!files.has(file)) continue;
      const mask = new Uint8Array(files.get(file).source.length);
      // ranges[0] is the function itself; the others are blocks inside a function that did run.
      for (const fn of script.functions)
        if (fn.ranges[0].count === 0) mask.fill(1, fn.ranges[0].startOffset, fn.ranges[0].endOffset);
      result.set(
        file,
        mask.reduce((sum, bit) => sum + bit, 0),
      );
    }
  }
  return result;
}

/** Runs `node args` with `stdin` written to it, resolves with its stdout once `done(stdout)` holds, then ends stdin. */
function run(args, { env, stdin = '', done = () => false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} did not finish within 20 s`));
    }, 20_000);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (done(out)) child.stdin.end();
    });
    child.once('exit', (code) => {
      clearTimeout(guard);
      if (code === 0) resolve(out);
      else reject(new Error(`node ${args.join(' ')} exited with ${code}`));
    });
    child.stdin.write(stdin);
  });
}

// 1. The root's static graph.
const files = staticGraph(fileURLToPath(distUrl('index.js')));
const totalBytes = [...files.values()].reduce((sum, { source }) => sum + source.length, 0);

// 2. What the W0 server runs of it: answer `initialize`, then close stdin so that it stops and writes its coverage.
const coverageDir = path.join(work, 'coverage');
await run([coldServer('ours-root')], {
  env: { NODE_V8_COVERAGE: coverageDir },
  stdin: INITIALIZE_LINE,
  done: (out) => out.includes('"id":1'),
});
const unused = neverCalledBytes(coverageDir, files);

// 3. The load cost of code that never runs: the same code (import and export statements taken out) inside an
// uncalled function.
const body = [...files.values()]
  .map(({ source, ast }) => {
    let kept = '';
    let at = 0;
    for (const node of ast.body) {
      if (!/^(Import|Export)/.test(node.type)) continue;
      kept += source.slice(at, node.start);
      if (node.declaration) kept += source.slice(node.declaration.start, node.declaration.end);
      at = node.end;
    }
    return kept + source.slice(at);
  })
  .join('\n');
const deadFile = path.join(work, 'dead.mjs');
const emptyFile = path.join(work, 'empty.mjs');
writeFileSync(deadFile, `async function neverCalled() {\n${body}\n}\nexport { neverCalled };\n`);
writeFileSync(emptyFile, 'export {};\n');
const deadBytes = readFileSync(deadFile, 'utf8').length;
const timeImport = (file) =>
  run([
    '--input-type=module',
    '-e',
    'const t = performance.now(); await import(process.argv[1]); process.stdout.write(String(performance.now() - t));',
    pathToFileURL(file).href,
  ]).then(Number);
const times = { empty: [], dead: [] };
for (let i = 0; i < spawns; i++) {
  for (const name of i % 2 ? ['dead', 'empty'] : ['empty', 'dead']) {
    times[name].push(await timeImport(name === 'dead' ? deadFile : emptyFile));
  }
}
const deadMs = median(times.dead) - median(times.empty);
const usPerKb = (deadMs * 1000) / (deadBytes / 1024);

const rows = [...files].map(([file, { source }]) => [
  path.relative(fileURLToPath(distUrl('.')), file),
  num(source.length / 1024),
  num((unused.get(file) ?? 0) / 1024),
  `${Math.round((100 * (unused.get(file) ?? 0)) / source.length)}%`,
]);
const totalUnused = [...unused.values()].reduce((sum, bytes) => sum + bytes, 0);
rows.push(['all', num(totalBytes / 1024), num(totalUnused / 1024), `${Math.round((100 * totalUnused) / totalBytes)}%`]);
process.stdout.write(
  `${table(["what `import 'mcp-toolkit'` loads", 'KB', 'KB never called (W0)', 'share'], rows)}\n\n` +
    `${table(
      ['never-called code, loaded by import()', 'KB', 'median ms'],
      [
        ['empty module', num(0), num(median(times.empty), 2)],
        ["the root graph's code in an uncalled function", num(deadBytes / 1024), num(median(times.dead), 2)],
      ],
    )}\n` +
    `(medians of ${spawns} fresh processes each, alternating; Node ${process.versions.node})\n\n` +
    `Loading code that never runs costs ${num(usPerKb)} us per KB here: the root's ${num(totalBytes / 1024)} KB ` +
    `cost ~${num((usPerKb * totalBytes) / 1024 / 1000)} ms of a cold start before any of it runs, the ${num(totalUnused / 1024)} KB ` +
    `W0 never calls ~${num((usPerKb * totalUnused) / 1024 / 1000)} ms.\n`,
);
