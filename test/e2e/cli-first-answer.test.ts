// #30 (W0): `serve --stdio` answers a client's first message, already waiting on stdin, before it starts its
// background document work (the watcher and the search index). From Node 22 on, an `import()` of a file settles
// before the event loop first polls stdin, so chokidar started and the index read every document before
// `initialize` was even read (the CLI at 1.14x the raw SDK on Node 24, 1.06x once the work waits its turn).
// The preload makes every Node behave that way: it loads the watcher's and the index's code first (an `import()`
// of a loaded module settles at once on Node 20 too) and writes, in order on stderr, the first answer, each
// `fs.watch` and each document read.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const work = mkdtempSync(join(tmpdir(), 'cli-first-answer-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Loaded before the CLI: notes on stderr, in order, the first answer and every file-system call on the served
 * folder (chokidar's and the index's first steps are such calls), then loads the watcher's and the index's code.
 */
const PRELOAD = `
import fs, { writeSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const folder = process.env.FIRST_ANSWER_FOLDER;
const note = (line) => writeSync(2, line + '\\n');
for (const name of ['stat', 'lstat', 'open', 'realpath', 'readdir', 'readFile', 'watch']) {
  for (const api of name === 'watch' ? [fs] : [fs, fs.promises]) {
    const original = api[name];
    api[name] = function (...args) {
      if (String(args[0]).startsWith(folder)) note('FS ' + name + ' ' + args[0]);
      return original.apply(this, args);
    };
  }
}
syncBuiltinESMExports();
const write = process.stdout.write;
let answered = false;
process.stdout.write = function (...args) {
  if (!answered) { answered = true; note('ANSWERED'); }
  return write.apply(this, args);
};
for (const file of ['dist/lazy/document-watcher.js', 'dist/lazy/search-index.js', 'node_modules/chokidar/index.js'])
  await import(new URL(file, ${JSON.stringify(pathToFileURL(`${ROOT}/`).href)}).href);
`;

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'first-answer', version: '1' } },
};

describe('serve --stdio with a client waiting at start', () => {
  it('answers the first message before it starts watching and indexing', async () => {
    const folder = join(work, 'docs');
    const preload = join(work, 'preload.mjs');
    mkdirSync(folder); // the documents in a folder of their own, so that the preload is not served
    writeFileSync(join(folder, 'a.md'), '# A\n\nalpha\n');
    writeFileSync(join(folder, 'b.md'), '# B\n\nbeta\n');
    writeFileSync(preload, PRELOAD);
    const child = spawn(
      process.execPath,
      ['--import', pathToFileURL(preload).href, CLI, 'serve', '--stdio', '-q', folder],
      { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, FIRST_ANSWER_FOLDER: folder } },
    );
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`); // waiting in the pipe before the CLI reads it
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
        });
        child.once('exit', (code) => reject(new Error(`the CLI exited (${code}) before it answered: ${stderr}`)));
      });
      expect(JSON.parse(answer)).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
      // Both kinds of work do start, after the answer: the watcher on the folder, the index on each document.
      await new Promise<void>((resolve, reject) => {
        const look = () => {
          if (stderr.includes(`FS watch ${folder}`) && stderr.includes(`FS readFile ${join(folder, 'b.md')}`))
            resolve();
        };
        child.stderr.on('data', look);
        look();
        child.once('exit', (code) =>
          reject(new Error(`the CLI exited (${code}) before watching and indexing: ${stderr}`)),
        );
      });
      const lines = stderr.split('\n');
      const answered = lines.indexOf('ANSWERED');
      expect(answered, stderr).toBeGreaterThanOrEqual(0);
      expect(
        lines.findIndex((line) => line.startsWith('FS ')),
        stderr,
      ).toBeGreaterThan(answered);
    } finally {
      clearTimeout(guard);
      child.stdin.end();
      child.kill('SIGTERM');
    }
  });
});
