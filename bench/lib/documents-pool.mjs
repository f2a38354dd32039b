/* global performance, setInterval, clearInterval, setTimeout */
// The conversion pool (#10) measured against inline conversion on the main thread ("before the pool"):
// cold and repeated reads of a 100-page PDF, the pool's overhead on a one-page PDF, and the longest
// event-loop gap while a 2,000-page PDF converts. Used by bench/documents-scale.mjs (W6).
import fs from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { DocumentStore, createDefaultConverters } from '../../dist/public/documents.js';

const REPEATS = 15;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ms = (value) => (value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(1) : value.toFixed(2));

/** The built-in PDF converter without its worker spec: converts on the calling thread, as before #10. */
function inlinePdfConverter() {
  const pdf = createDefaultConverters().find('application/pdf', 'pdf');
  return Object.create(pdf, { worker: { value: undefined } });
}

/** A store whose PDFs convert inline (`before`) or in the pool (`after`); no content cache, so every read converts. */
function store(mode) {
  // No time limit in the way: on a loaded machine the 2,000-page conversion can pass the default 30 s.
  const documents = new DocumentStore({ cacheMaxBytes: 0, conversionTimeoutMs: 600_000 });
  if (mode === 'before') documents.converters.register(inlinePdfConverter());
  return documents;
}

async function pdfWithPages(file, pages, linesPerPage) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= pages; page += 1) {
    const pdfPage = doc.addPage([595, 842]);
    for (let line = 0; line < linesPerPage; line += 1) {
      pdfPage.drawText(`Page ${page}, line ${line}: the conversion pool keeps the event loop free.`, {
        x: 40,
        y: 800 - line * 24,
        size: 11,
        font,
      });
    }
  }
  await fs.writeFile(file, await doc.save());
}

async function timedRead(documents, uri) {
  const start = performance.now();
  await documents.readFull(uri);
  return performance.now() - start;
}

/** Longest gap (ms) between 5 ms interval ticks while `work` runs: how long the event loop was blocked. */
async function longestGap(work) {
  let last = performance.now();
  let gap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 5);
  const start = performance.now();
  await work();
  const total = performance.now() - start;
  clearInterval(ticker);
  return { gap: Math.max(gap, performance.now() - last), total };
}

/** Markdown rows: [measure, before (inline), after (pool)]. */
export async function poolRows(tmp) {
  const hundred = path.join(tmp, 'pool-100-pages.pdf');
  const one = path.join(tmp, 'pool-1-page.pdf');
  const big = path.join(tmp, 'pool-2000-pages.pdf');
  await pdfWithPages(hundred, 100, 30);
  await pdfWithPages(one, 1, 5);
  await pdfWithPages(big, 2000, 3);
  const results = {};
  // The pool first: its cold read must not profit from pdf.js already loaded on the main thread (it
  // cannot anyway: a worker loads its own copy); the inline cold read then loads pdf.js on the main thread.
  for (const mode of ['after', 'before']) {
    const documents = store(mode);
    const uris = [hundred, one, big].map((file) => documents.registerDocument(file).uri);
    const [hundredUri, oneUri, bigUri] = uris;
    const cold = await timedRead(documents, hundredUri);
    const repeat = [];
    for (let i = 0; i < REPEATS; i += 1) repeat.push(await timedRead(documents, hundredUri));
    const small = [];
    for (let i = 0; i < REPEATS * 2; i += 1) small.push(await timedRead(documents, oneUri));
    const blocked = await longestGap(() => documents.readFull(bigUri));
    results[mode] = { cold, repeat: median(repeat), small: median(small), smallMin: Math.min(...small), ...blocked };
    await documents.close();
  }
  const { before, after } = results;
  // The same ticker with nothing converting, for as long as the pooled conversion took: what the machine
  // itself adds (on a loaded machine the ticker is late even when the event loop is idle).
  const idle = await longestGap(() => new Promise((resolve) => setTimeout(resolve, Math.min(after.total, 10_000))));
  return [
    ['100-page PDF, cold read (first conversion: loads pdf.js; pool: also starts a worker)', before.cold, after.cold],
    [`100-page PDF, read converting again (median of ${REPEATS})`, before.repeat, after.repeat],
    [`1-page PDF, read converting again (median of ${REPEATS * 2}): pool overhead`, before.small, after.small],
    ['1-page PDF, fastest of those (the overhead without scheduling delays)', before.smallMin, after.smallMin],
    ['2,000-page PDF, conversion time', before.total, after.total],
    ['2,000-page PDF, longest event-loop gap during the conversion', before.gap, after.gap],
    ['longest event-loop gap with nothing converting (machine baseline)', idle.gap, idle.gap],
  ].map(([what, inline, pooled]) => [what, `${ms(inline)} ms`, `${ms(pooled)} ms`]);
}
