/* global console, performance, process, setTimeout, clearTimeout */
// Document layer at scale: registerFolder over a 10,000-file tree (median of a few runs, no content
// read), the memory it takes, list(), the first and a warm search over the tree, and cold vs warm
// reads of a generated 100-page PDF (the converted-content cache), and the conversion pool against
// inline conversion (bench/lib/documents-pool.mjs: cold/repeat reads, pool overhead, event-loop gap).
//
//   npm run bench:documents            (builds, then: node --expose-gc bench/documents-scale.mjs)
//   node --expose-gc bench/documents-scale.mjs [files=10000] [runs=5]
//
// Everything happens in a temporary folder that is removed at the end, also on failure or Ctrl-C.
// The whole run is bounded (TIME_LIMIT_MS); it prints a markdown table.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { DocumentSearchIndex, DocumentStore } from '../dist/public/documents.js';
import { poolRows } from './lib/documents-pool.mjs';

const [FILES = 10_000, RUNS = 5] = process.argv[2] === '--memory' ? [] : process.argv.slice(2).map(Number);
const TIME_LIMIT_MS = 180_000;
const WARM_READS = 1_000;
const gc = typeof globalThis.gc === 'function' ? () => globalThis.gc() : () => undefined;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ms = (value) => (value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(1) : value.toFixed(3));
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

async function timed(fn) {
  const start = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - start };
}

/** FILES small markdown/text files in a tree three levels deep (10 x 10 folders), a few words each. */
async function makeTree(root) {
  const words = ['alpha', 'budget', 'cobalt', 'delta', 'ember', 'fjord', 'granite', 'harbor', 'indigo', 'juniper'];
  const batch = [];
  for (let i = 0; i < FILES; i += 1) {
    const dir = path.join(root, `area-${i % 10}`, `topic-${Math.floor(i / 10) % 10}`);
    const name = `note-${i}.${i % 3 === 0 ? 'txt' : 'md'}`;
    const text = `# Note ${i}\n\nAbout ${words[i % 10]} and ${words[(i * 7) % 10]}; reference code R${i}.\n`;
    batch.push({ dir, file: path.join(dir, name), text });
  }
  await Promise.all([...new Set(batch.map((item) => item.dir))].map((dir) => fs.mkdir(dir, { recursive: true })));
  for (let i = 0; i < batch.length; i += 200) {
    await Promise.all(batch.slice(i, i + 200).map((item) => fs.writeFile(item.file, item.text)));
  }
}

/** A 100-page PDF with a paragraph of text on every page. */
async function makePdf(file) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= 100; page += 1) {
    const pdfPage = doc.addPage([595, 842]);
    for (let line = 0; line < 30; line += 1) {
      const text = `Page ${page}, line ${line}: the quick brown fox jumps over the lazy dog ${page * line}.`;
      pdfPage.drawText(text, { x: 40, y: 800 - line * 24, size: 11, font });
    }
  }
  await fs.writeFile(file, await doc.save());
}

async function main(tmp) {
  const rows = [];
  const root = path.join(tmp, 'tree');
  const created = await timed(() => makeTree(root));
  rows.push([`create the ${FILES.toLocaleString('en-US')}-file tree (setup, not the toolkit)`, `${ms(created.ms)} ms`]);

  // registerFolder: a fresh store per run; the first run is reported separately (cold module/code paths).
  const runs = [];
  let registered = 0;
  for (let run = 0; run <= RUNS; run += 1) {
    const store = new DocumentStore();
    gc();
    const { result, ms: took } = await timed(() => store.registerFolder(root));
    registered = result.length;
    if (run > 0) runs.push(took);
    else rows.push(['`registerFolder` first run', `${ms(took)} ms`]);
    await store.close();
  }
  if (registered !== FILES) throw new Error(`registered ${registered} files, expected ${FILES}`);
  const spread = `${ms(Math.min(...runs))}-${ms(Math.max(...runs))}`;
  rows.push([
    `\`registerFolder\` (${FILES.toLocaleString('en-US')} files, median of ${RUNS}; range ${spread} ms)`,
    `${ms(median(runs))} ms`,
  ]);

  // Memory held by one registered tree, measured in a fresh process so earlier steps do not blur it.
  const memory = JSON.parse(
    execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--memory', root], {
      encoding: 'utf8',
      timeout: 60_000,
    }),
  );
  rows.push(['RSS delta after registering (fresh process)', `${mib(memory.rss)} MiB`]);
  rows.push(['heap delta after registering (fresh process)', `${mib(memory.heapUsed)} MiB`]);
  const store = new DocumentStore();
  store.registerFolder(root);

  const firstList = await timed(() => store.list());
  const cachedList = [];
  for (let i = 0; i < 100; i += 1) cachedList.push((await timed(() => store.list())).ms);
  rows.push(['`list()` first call (builds the frozen list)', `${ms(firstList.ms)} ms`]);
  rows.push(['`list()` again (median of 100)', `${ms(median(cachedList))} ms`]);

  // Search: the first search builds the index (reads every file); later ones only query it.
  const index = new DocumentSearchIndex(store);
  const firstSearch = await timed(() => index.search('granite harbor'));
  const warmSearch = [];
  for (let i = 0; i < 20; i += 1) warmSearch.push((await timed(() => index.search(`R${i * 37}`))).ms);
  rows.push([
    `first \`search\` (builds the index: reads all ${FILES.toLocaleString('en-US')} files)`,
    `${ms(firstSearch.ms)} ms`,
  ]);
  rows.push(['`search` on the built index (median of 20)', `${ms(median(warmSearch))} ms`]);
  gc();
  rows.push(['RSS after building the index', `${mib(process.memoryUsage().rss)} MiB`]);
  index.close();
  await store.close();

  // 100-page PDF: cold read (pdf.js loaded + parse), cold read of a copy (parse only), warm reads (cache hit).
  const pdf = path.join(tmp, 'manual-100-pages.pdf');
  await makePdf(pdf);
  const copy = path.join(tmp, 'manual-copy.pdf');
  await fs.copyFile(pdf, copy);
  const pdfStore = new DocumentStore();
  const { uri } = pdfStore.registerDocument(pdf);
  const { uri: copyUri } = pdfStore.registerDocument(copy);
  const cold = await timed(() => pdfStore.read(uri));
  const coldCopy = await timed(() => pdfStore.read(copyUri));
  const warm = [];
  for (let i = 0; i < WARM_READS; i += 1) warm.push((await timed(() => pdfStore.read(uri))).ms);
  const [content] = await pdfStore.readFull(uri);
  const pages = (content.text.match(/^--- page \d+ ---$/gm) ?? []).length;
  if (pages !== 100) throw new Error(`the converted PDF has ${pages} pages, expected 100`);
  rows.push([
    `100-page PDF, cold \`read\` (first PDF: loads pdf.js, parses; ${content.text.length.toLocaleString('en-US')} chars)`,
    `${ms(cold.ms)} ms`,
  ]);
  rows.push(['100-page PDF, cold `read` of a second copy (parse only)', `${ms(coldCopy.ms)} ms`]);
  rows.push([
    `100-page PDF, warm \`read\` (cache hit, median of ${WARM_READS.toLocaleString('en-US')})`,
    `${ms(median(warm))} ms`,
  ]);
  rows.push(['100-page PDF, warm `read`, slowest of those', `${ms(Math.max(...warm))} ms`]);
  await pdfStore.close();
  return { rows, pool: await poolRows(tmp) };
}

/** `--memory ROOT`: in this fresh process, RSS and heap growth from registering ROOT (JSON on stdout). */
async function measureMemory(root) {
  gc();
  const before = process.memoryUsage();
  const store = new DocumentStore();
  store.registerFolder(root);
  gc();
  const after = process.memoryUsage();
  console.log(JSON.stringify({ rss: after.rss - before.rss, heapUsed: after.heapUsed - before.heapUsed }));
  await store.close();
}

if (process.argv[2] === '--memory') {
  await measureMemory(process.argv[3]);
  process.exit(0);
}

const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-toolkit-bench-docs-'));
const cleanup = () => fs.rm(tmp, { recursive: true, force: true });
process.once('SIGINT', () => cleanup().finally(() => process.exit(130)));
const limit = setTimeout(() => {
  console.error(`bench/documents-scale: over the ${TIME_LIMIT_MS / 1000} s limit, stopping`);
  cleanup().finally(() => process.exit(1));
}, TIME_LIMIT_MS);
try {
  const { rows, pool } = await main(tmp);
  console.log(
    `Node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), ${os.platform()}`,
  );
  console.log(`gc between steps: ${typeof globalThis.gc === 'function' ? 'yes' : 'no (run with --expose-gc)'}\n`);
  console.log('| measure | result |\n| --- | ---: |');
  for (const [what, value] of rows) console.log(`| ${what} | ${value} |`);
  console.log(`\nConversion pool (#10), load average ${os.loadavg()[0].toFixed(1)}:\n`);
  console.log('| measure | before (inline) | after (pool) |\n| --- | ---: | ---: |');
  for (const [what, before, after] of pool) console.log(`| ${what} | ${before} | ${after} |`);
} finally {
  clearTimeout(limit);
  await cleanup();
}
