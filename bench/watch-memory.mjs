/* global console, process */
// The memory cost of watching (the DocumentStore default since #29 item 5): one child process per
// mode registers the same generated folder of small Markdown files (100 per folder) with
// `watch: true` and `watch: false`, waits for the watcher's initial scan, collects garbage and prints
// RSS and heap used (MiB) of each and the difference.
//
//   npm run build && node bench/watch-memory.mjs [--files 20000] [--runs 3]
//
// The folder is generated in a temporary directory and removed at the end; each child is bounded.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
};
const FILES = Number(arg('files', '20000'));
const RUNS = Number(arg('runs', '3'));
const STORE = fileURLToPath(new URL('../dist/public/documents.js', import.meta.url));
const mib = (bytes) => bytes / 2 ** 20;
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

const child = `
import { DocumentStore } from ${JSON.stringify(STORE)};
const store = new DocumentStore({ watch: process.argv[2] === 'watch' });
const documents = store.registerFolder(process.argv[1]);
await store.watchReady();
for (let i = 0; i < 3; i++) globalThis.gc();
const { rss, heapUsed } = process.memoryUsage();
process.stdout.write(JSON.stringify({ documents: documents.length, rss, heapUsed }));
await store.close();
`;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-toolkit-watch-memory-'));
try {
  for (let i = 0; i < FILES; i++) {
    const folder = path.join(root, `f${Math.floor(i / 100)}`);
    if (i % 100 === 0) fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, `doc-${i}.md`), `# Document ${i}\n\nSome text about item ${i}.\n`);
  }
  const measure = (mode) =>
    JSON.parse(
      execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', child, root, mode], {
        encoding: 'utf8',
        timeout: 300_000,
      }),
    );
  const results = { watch: [], 'no-watch': [] };
  for (let run = 0; run < RUNS; run++) for (const mode of ['no-watch', 'watch']) results[mode].push(measure(mode));
  const row = (mode) => {
    const rss = median(results[mode].map((r) => mib(r.rss)));
    const heap = median(results[mode].map((r) => mib(r.heapUsed)));
    return { rss, heap, documents: results[mode][0].documents };
  };
  const [off, on] = [row('no-watch'), row('watch')];
  console.log(`${FILES} files in ${Math.ceil(FILES / 100)} folders, median of ${RUNS} runs (MiB):`);
  console.log(`  watch: false  RSS ${off.rss.toFixed(0)}  heap ${off.heap.toFixed(0)}  (${off.documents} documents)`);
  console.log(`  watch: true   RSS ${on.rss.toFixed(0)}  heap ${on.heap.toFixed(0)}  (${on.documents} documents)`);
  console.log(`  watching costs RSS +${(on.rss - off.rss).toFixed(0)}  heap +${(on.heap - off.heap).toFixed(0)}`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
