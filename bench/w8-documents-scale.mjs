/* global console, performance, process, setTimeout, clearTimeout */
// W8 documents at scale: the real CLI (`node dist/cli/main.js serve --stdio <folder>`, watching on)
// over a generated folder of small Markdown files, driven by the official v2 client over stdio.
// For each size it prints: the server's RSS (VmRSS and peak VmHWM from /proc/<pid>/status) after the
// index is built, time from spawn to the first complete `resources/list` (every page), time of the first
// `search_documents` (issued right after that list) and time for an edited file to be searchable.
//
//   npm run build && node --expose-gc bench/w8-documents-scale.mjs --files 10000,50000,100000 [--runs 1]
//
// Folders are generated in a temporary directory, removed at the end (also on failure or Ctrl-C);
// each server is killed by its PID; each size is bounded (SIZE_LIMIT_MS) and so is the whole run.
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
};
const SIZES = arg('files', '10000,50000,100000').split(',').map(Number);
const RUNS = Number(arg('runs', '1'));
const SIZE_LIMIT_MS = Number(arg('size-limit-s', '300')) * 1000;
const TIME_LIMIT_MS = SIZE_LIMIT_MS * SIZES.length * RUNS + 120_000;
const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const WORDS = ['alpha', 'budget', 'cobalt', 'delta', 'ember', 'fjord', 'granite', 'harbor', 'indigo', 'juniper'];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ms = (value) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const sleep = (delay) => new Promise((resolve) => setTimeout(resolve, delay));

/** VmRSS and VmHWM of a process, in MiB. */
function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** `files` small Markdown files, 100 per folder, folders two levels deep; a few words each. */
async function makeTree(root, files) {
  for (let start = 0; start < files; start += 100) {
    const dir = path.join(root, `area-${Math.floor(start / 10_000)}`, `topic-${Math.floor(start / 100) % 100}`);
    await fs.mkdir(dir, { recursive: true });
    const writes = [];
    for (let i = start; i < Math.min(files, start + 100); i += 1) {
      const text = `# Note ${i}\n\nAbout ${WORDS[i % 10]} and ${WORDS[(i * 7) % 10]}; reference code R${i}.\n`;
      writes.push(fs.writeFile(path.join(dir, `note-${i}.md`), text));
    }
    await Promise.all(writes);
  }
}

/** The structured result of one `search_documents` call. */
async function search(client, query) {
  const result = await client.callTool({ name: 'search_documents', arguments: { query } }, { timeout: 600_000 });
  if (result.isError) throw new Error(`search_documents failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

/** One server over `root`: the four measures. */
async function measure(root, files) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--stdio', '--quiet', root],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  // The client walks every page of resources/list (as a real client does): allow enough pages.
  const client = new Client({ name: 'w8-bench', version: '1.0.0' }, { listMaxPages: 10_000 });
  const t0 = performance.now();
  await client.connect(transport);
  const pid = transport.pid;
  try {
    const listed = await client.listResources();
    const firstList = performance.now() - t0;
    const s0 = performance.now();
    const first = await search(client, 'granite harbor');
    const firstSearch = performance.now() - s0;
    // Until every document is indexed (a search may answer from part of the index while it builds).
    let built = first;
    while (built.pendingDocuments > 0) {
      await sleep(100);
      built = await search(client, 'granite harbor');
    }
    const indexBuilt = performance.now() - t0;
    if (listed.resources.length !== files) throw new Error(`listed ${listed.resources.length} of ${files} files`);
    if (built.indexedDocuments !== files) throw new Error(`indexed ${built.indexedDocuments} of ${files} files`);
    const memory = rssOf(pid);
    // A change: a unique word written into one file, then searched for until found.
    const word = `zephyrine${files}`;
    const file = path.join(root, 'area-0', 'topic-0', 'note-7.md');
    const c0 = performance.now();
    await fs.writeFile(file, `# Note 7\n\nNow about ${word}.\n`);
    let found = 0;
    while (found === 0) {
      if (performance.now() - c0 > 30_000) throw new Error(`the edit was not searchable within 30 s`);
      found = (await search(client, word)).totalMatches;
      if (found === 0) await sleep(20);
    }
    const change = performance.now() - c0;
    await fs.writeFile(file, `# Note 7\n\nAbout ${WORDS[7]} and ${WORDS[9]}; reference code R7.\n`);
    return {
      listed: listed.resources.length,
      firstList,
      firstSearch,
      firstSearchIndexed: first.indexedDocuments,
      indexBuilt,
      change,
      ...memory,
    };
  } catch (error) {
    throw new Error(`${error.message}\nserver stderr: ${stderr}`, { cause: error });
  } finally {
    await client.close().catch(() => undefined);
    if (pid !== undefined) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

async function withLimit(promise, limitMs, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: over the ${limitMs / 1000} s limit`)), limitMs);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

async function main(tmp) {
  const rows = [];
  for (const files of SIZES) {
    const root = path.join(tmp, `tree-${files}`);
    const c0 = performance.now();
    await makeTree(root, files);
    const created = performance.now() - c0;
    const runs = [];
    for (let run = 0; run < RUNS; run += 1) {
      runs.push(await withLimit(measure(root, files), SIZE_LIMIT_MS, `${files} files`));
      if (global.gc) global.gc();
    }
    const pick = (key) => median(runs.map((run) => run[key]));
    rows.push({ files, created, pick });
    await fs.rm(root, { recursive: true, force: true });
  }
  return rows;
}

const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-toolkit-bench-w8-'));
const cleanup = () => fs.rm(tmp, { recursive: true, force: true });
process.once('SIGINT', () => cleanup().finally(() => process.exit(130)));
const limit = setTimeout(() => {
  console.error(`bench/w8-documents-scale: over the ${TIME_LIMIT_MS / 1000} s limit, stopping`);
  cleanup().finally(() => process.exit(1));
}, TIME_LIMIT_MS);
try {
  const rows = await main(tmp);
  console.log(
    `Node ${process.version}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), ${os.platform()}, ` +
      `load average ${os.loadavg()[0].toFixed(1)} (shared machine: read RSS and ratios), median of ${RUNS} run(s)\n`,
  );
  console.log(
    '| files | RSS / peak (MiB) | RSS per 1k files (MiB) | first list (ms) | first search (ms; docs indexed then) ' +
      '| index complete (ms from spawn) | change searchable (ms) |',
  );
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const { files, pick } of rows) {
    console.log(
      `| ${files.toLocaleString('en-US')} | ${pick('rss').toFixed(0)} / ${pick('peak').toFixed(0)} ` +
        `| ${((pick('rss') / files) * 1000).toFixed(1)} | ${ms(pick('firstList'))} ` +
        `| ${ms(pick('firstSearch'))} (${Math.round(pick('firstSearchIndexed')).toLocaleString('en-US')}) ` +
        `| ${ms(pick('indexBuilt'))} | ${ms(pick('change'))} |`,
    );
  }
  const setup = rows.map(({ files, created }) => `${files}: ${(created / 1000).toFixed(1)} s`).join(', ');
  console.log(`\nfolder generation (setup, not the toolkit): ${setup}`);
} finally {
  clearTimeout(limit);
  await cleanup();
}
