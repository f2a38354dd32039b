/* global URL, clearTimeout, performance, setTimeout */
// W6 documents: bench/documents-scale.mjs (10,000-file registerFolder: time and memory;
// list(); search; 100-page PDF cold and warm read) run as its own process, plus
// `resources/list` over HTTP on a 10,000-file folder, following nextCursor to the end.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { startChild } from '../lib/children.mjs';
import { HttpDriver, legacyHeaders } from '../lib/http-driver.mjs';
import { median, num, table } from '../lib/stats.mjs';

const FILES = 10_000;
const SCRIPT = fileURLToPath(new URL('../documents-scale.mjs', import.meta.url));

/** Runs documents-scale.mjs (bounded) and returns its stdout. */
async function documentsScale(runs) {
  const child = spawn(process.execPath, ['--expose-gc', SCRIPT, String(FILES), String(runs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  const timer = setTimeout(() => child.kill('SIGINT'), 240_000);
  const code = await new Promise((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`bench/documents-scale.mjs exited with ${code}:\n${text}`);
  return text.trim();
}

/** The value (ms) of the first table row whose label matches `pattern`. */
function rowMs(markdown, pattern) {
  const row = markdown.split('\n').find((line) => line.startsWith('|') && pattern.test(line));
  const match = row?.match(/\|\s*([\d.,]+) ms\s*\|\s*$/);
  return match ? Number(match[1].replace(/,/g, '')) : NaN;
}

/** Every `N ms` cell of the first table row whose label matches `pattern` (NaN-free; [] when absent). */
function rowCellsMs(markdown, pattern) {
  const row = markdown.split('\n').find((line) => line.startsWith('|') && pattern.test(line));
  return [...(row ?? '').matchAll(/\|\s*([\d.,]+) ms\s*(?=\|)/g)].map((match) => Number(match[1].replace(/,/g, '')));
}

async function makeTree(root) {
  for (let dir = 0; dir < 100; dir += 1) {
    const folder = path.join(root, `area-${dir % 10}`, `topic-${Math.floor(dir / 10)}`);
    await mkdir(folder, { recursive: true });
    const files = [];
    for (let i = dir; i < FILES; i += 100) files.push(writeFile(path.join(folder, `note-${i}.md`), `# Note ${i}\n`));
    await Promise.all(files);
  }
}

/** Pages through resources/list on a legacy session; returns { ms, pages, entries }. */
async function pageAll(driver, sid) {
  const start = performance.now();
  let cursor;
  let pages = 0;
  let entries = 0;
  do {
    const params = cursor ? `{"cursor":${JSON.stringify(cursor)}}` : '{}';
    const body = `{"jsonrpc":"2.0","id":${driver.nextId++},"method":"resources/list","params":${params}}`;
    const result = await driver.rpc(body, legacyHeaders(sid));
    pages += 1;
    entries += result.resources.length;
    cursor = result.nextCursor;
  } while (cursor);
  return { ms: performance.now() - start, pages, entries };
}

async function resourcesList(rounds) {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'mcp-toolkit-bench-w6-'));
  try {
    await makeTree(tmp);
    const startups = [];
    const pagings = [];
    for (let round = 0; round < rounds; round += 1) {
      const t0 = performance.now();
      const child = await startChild('ours', 'http', { tools: 1, folder: tmp }, { hardTimeoutMs: 120_000 });
      startups.push(performance.now() - t0);
      const driver = new HttpDriver(child.port, 2);
      try {
        const sid = await driver.openSession();
        for (let i = 0; i < 5; i += 1) pagings.push(await pageAll(driver, sid));
      } finally {
        driver.close();
        await child.kill();
      }
    }
    const last = pagings.at(-1);
    if (last.entries !== FILES) throw new Error(`resources/list listed ${last.entries} of ${FILES}`);
    return { startup: median(startups), paging: median(pagings.map((p) => p.ms)), pages: last.pages };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

export async function run({ quick, rounds, log }) {
  log('W6 bench/documents-scale.mjs');
  const scale = await documentsScale(quick ? 3 : 5);
  log('W6 resources/list over HTTP');
  const listing = await resourcesList(Math.min(rounds, 3));
  const register = rowMs(scale, /`registerFolder` \(/);
  const warm = rowMs(scale, /warm `read` \(cache hit/);
  const [inlineSmall = NaN, pooledSmall = NaN] = rowCellsMs(scale, /1-page PDF, read converting again/);
  const overhead = pooledSmall - inlineSmall;
  const [inlineGap = NaN, pooledGap = NaN] = rowCellsMs(scale, /longest event-loop gap/);
  return {
    id: 'W6',
    headline: [
      { metric: 'registerFolder ms', value: register, better: 'lower' },
      { metric: 'resources/list paging ms', value: listing.paging, better: 'lower' },
    ],
    title: 'W6 documents',
    markdown:
      `From \`bench/documents-scale.mjs\` (${FILES.toLocaleString('en-US')} small files; in-process DocumentStore):\n\n${scale}\n\n` +
      `Over HTTP (HttpMcpServer child with the ${FILES.toLocaleString('en-US')}-file folder registered, legacy session, medians):\n\n` +
      table(
        ['measure', 'result'],
        [
          ['server process start incl. `registerFolder` (spawn to listening)', `${num(listing.startup, 0)} ms`],
          [
            `\`resources/list\` full paging (${listing.pages} page${listing.pages > 1 ? 's' : ''})`,
            `${num(listing.paging, 1)} ms`,
          ],
        ],
      ),
    targets: [
      { target: '10,000 files registered in under 1 s', measured: `${num(register, 1)} ms`, met: register < 1_000 },
      { target: 'warm read of the 100-page PDF under 1 ms', measured: `${num(warm, 3)} ms`, met: warm < 1 },
      {
        target: 'conversion pool overhead on a 1-page PDF under 5 ms',
        measured: `${num(overhead, 2)} ms`,
        met: overhead < 5,
      },
      {
        target: 'no event-loop gap over 50 ms while a 2,000-page PDF converts',
        measured: `${num(pooledGap, 1)} ms (inline: ${num(inlineGap, 0)} ms)`,
        met: pooledGap < 50,
      },
    ],
  };
}
