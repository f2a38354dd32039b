// #30 (W0): a stdio server answers a client's first message, already waiting on stdin, before it starts the
// background work it was given before `start()`: the document watcher and search index (`serve --stdio`), an
// upstream's connection (`addUpstream`). From Node 22 on, an `import()` of a file settles before the event loop
// first polls stdin, so chokidar started, the index read every document and the upstream was spawned before
// `initialize` was even read (the CLI at 1.14x the raw SDK on Node 24, 1.06x once the work waits its turn).
// The preload makes every Node behave that way: it loads that code first (an `import()` of a loaded module settles
// at once on Node 20 too) and writes, in order on stderr, the first answer, each file-system call on the served
// folder and each process spawned.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROOT_URL = pathToFileURL(`${ROOT}/`).href;
const work = mkdtempSync(join(tmpdir(), 'first-answer-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PRELOAD = join(work, 'preload.mjs');
writeFileSync(
  PRELOAD,
  `
import { createRequire, syncBuiltinESMExports } from 'node:module';
import fs, { writeSync } from 'node:fs';
const folder = process.env.FIRST_ANSWER_FOLDER;
const note = (line) => writeSync(2, line + '\\n');
for (const name of ['stat', 'lstat', 'open', 'realpath', 'readdir', 'readFile', 'watch']) {
  for (const api of name === 'watch' ? [fs] : [fs, fs.promises]) {
    const original = api[name];
    api[name] = function (...args) {
      if (folder && String(args[0]).startsWith(folder)) note('FS ' + name + ' ' + args[0]);
      return original.apply(this, args);
    };
  }
}
const childProcess = createRequire(import.meta.url)('node:child_process');
const spawn = childProcess.spawn;
childProcess.spawn = function (...args) { note('SPAWN ' + args[0]); return spawn.apply(this, args); };
syncBuiltinESMExports();
const write = process.stdout.write;
let answered = false;
process.stdout.write = function (...args) {
  if (!answered) { answered = true; note('ANSWERED'); }
  return write.apply(this, args);
};
for (const file of [
  'dist/lazy/document-watcher.js',
  'dist/lazy/search-index.js',
  'dist/lazy/upstream.js',
  'node_modules/chokidar/index.js',
  'node_modules/@modelcontextprotocol/client/dist/index.mjs',
  'node_modules/@modelcontextprotocol/client/dist/stdio.mjs',
])
  await import(new URL(file, ${JSON.stringify(ROOT_URL)}).href);
`,
);

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'first-answer', version: '1' } },
};

/**
 * Starts `node --import <preload> ...args` with `initialize` already written to its stdin; once it answered and
 * `done(stderr)` holds, resolves with its stderr lines. Stops it (SIGTERM, then SIGKILL after 20 s in all).
 */
async function firstAnswerThen(args: string[], env: Record<string, string>, done: (stderr: string) => boolean) {
  const child = spawn(process.execPath, ['--import', pathToFileURL(PRELOAD).href, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`); // waiting in the pipe before the server reads it
  try {
    const answer = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it answered: ${stderr}`)));
    });
    expect(JSON.parse(answer)).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    await new Promise<void>((resolve, reject) => {
      const look = () => done(stderr) && resolve();
      child.stderr.on('data', look);
      look();
      child.once('exit', (code) =>
        reject(new Error(`the server exited (${code}) before its background work: ${stderr}`)),
      );
    });
    return stderr.split('\n');
  } finally {
    clearTimeout(guard);
    child.stdin.end();
    child.kill('SIGTERM');
  }
}

/** The first stderr line starting with `prefix` comes after the first answer. */
function expectFirstAfterAnswer(lines: string[], prefix: string): void {
  const answered = lines.indexOf('ANSWERED');
  expect(answered, lines.join('\n')).toBeGreaterThanOrEqual(0);
  expect(
    lines.findIndex((line) => line.startsWith(prefix)),
    lines.join('\n'),
  ).toBeGreaterThan(answered);
}

describe('a stdio server with a client waiting at start', () => {
  // With --state-file, start() loads the tool state from the file first: the work waits for that too.
  it.each([[[]], [['--state-file', 'state.json']]])(
    'serve --stdio %j answers the first message before it starts watching and indexing',
    async (flags: string[]) => {
      const folder = mkdtempSync(join(work, 'docs-')); // a folder of its own, so that the preload is not served
      writeFileSync(join(folder, 'a.md'), '# A\n\nalpha\n');
      writeFileSync(join(folder, 'b.md'), '# B\n\nbeta\n');
      const state = flags.map((flag) => (flag.endsWith('.json') ? join(work, `${flag}-${Date.now()}`) : flag));
      const lines = await firstAnswerThen(
        [join(ROOT, 'dist/cli/main.js'), 'serve', '--stdio', '-q', ...state, folder],
        { FIRST_ANSWER_FOLDER: folder },
        // Both kinds of work do start: the watcher on the folder, the index on each document.
        (stderr) => stderr.includes(`FS watch ${folder}`) && stderr.includes(`FS readFile ${join(folder, 'b.md')}`),
      );
      expectFirstAfterAnswer(lines, 'FS ');
    },
  );

  it('a server with an upstream answers the first message before it spawns the upstream', async () => {
    const app = join(work, 'gateway.mjs');
    writeFileSync(
      app,
      `import { StdioMcpServer } from ${JSON.stringify(new URL('dist/index.js', ROOT_URL).href)};
      const server = new StdioMcpServer({ name: 'first-answer-gateway', version: '1.0.0' });
      server.addUpstream({ name: 'files', command: process.execPath, args: [${JSON.stringify(join(ROOT, 'test/fixtures/built-ins-stdio-fixture.mjs'))}] });
      await server.start();`,
    );
    const lines = await firstAnswerThen([app], {}, (stderr) => stderr.includes('SPAWN '));
    expectFirstAfterAnswer(lines, 'SPAWN ');
  });
});
