// #12: a stdio server pays only for what it uses. Importing the package root and starting a one-tool
// StdioMcpServer must not load the HTTP stack, the logger, the document layer or the cluster client
// (bench W0 measures the time; this test keeps a stray static import from bringing them back).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LAZY = [
  'express',
  'cors',
  '@hono/node-server',
  'pino',
  'mime-types',
  'turndown',
  'picomatch',
  'jszip',
  'fflate',
  'redis',
  '@apidevtools/swagger-parser',
  '@valibot/to-json-schema',
  'node:os', // #30: read by the conversion pool on first use, not when a server makes its document store
  'undici', // Node's own, loaded by the first read of the global Response/fetch (~35 ms on Node 20)
  // #30: `import fs from 'node:fs'` builds the module's ES namespace, which runs its getters: `ReadStream` loads the
  // file streams and, where Node's own loader has not (Node >= 22), `promises` loads the promises API with readline,
  // directory streams and watchers (~4 ms). The document layer reads `node:fs` with `nodeFs()`.
  'node:fs streams',
];

/**
 * The document layer's code a server runs only once it has documents, each a `dist/lazy/` entry loaded by
 * `import()` on first use: the watcher, the read path, the conversion processes (and, in those, the
 * converters' parsing helpers), text ranges and the search index.
 */
const DOCUMENT_ENTRIES = [
  'document-watcher',
  'read-path',
  'conversion-processes',
  'html-to-markdown',
  'zip-limits',
  'pdf-output-guard',
  'text-range',
  'search-index',
];

/** Node flags that make the ESM loader print `LOADED <url>` on stderr for every module it resolves. */
const LIST_LOADS = (() => {
  const hooks = `import { writeSync } from 'node:fs';
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context);
        writeSync(2, 'LOADED ' + resolved.url + '\\n');
        return resolved;
      }`;
  const register = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));`;
  return ['--import', `data:text/javascript,${encodeURIComponent(register)}`];
})();

/** A `--require` preload that prints `REQUIRED <id>` on stderr for every CommonJS load (createRequire included). */
const LIST_REQUIRES = `const Module = require('node:module');
const { writeSync } = require('node:fs');
const load = Module._load;
Module._load = function (request, ...rest) {
  writeSync(2, 'REQUIRED ' + request + '\\n');
  return load.call(this, request, ...rest);
};
`;

const SCRIPT = `
import Module from 'node:module';
import { PassThrough } from 'node:stream';
const { defineTool, StdioMcpServer } = await import('./dist/index.js');
const server = new StdioMcpServer({ name: 'lazy', version: '1.0.0' }, { stdin: new PassThrough(), stdout: new PassThrough() });
server.registerTool(defineTool({ name: 'echo', execute: () => 'hi' }));
await server.start();
const loaded = new Set(Object.keys(Module._cache).map((file) => file.replace(/.*node_modules\\/((@[^/]+\\/)?[^/]+).*/, '$1')));
if (process.moduleLoadList.includes('NativeModule os')) loaded.add('node:os');
if (process.moduleLoadList.includes('NativeModule internal/fs/streams')) loaded.add('node:fs streams');
if (process.moduleLoadList.includes('NativeModule internal/deps/undici/undici')) loaded.add('undici');
process.stdout.write(JSON.stringify([...loaded]));
await server.stop();
`;

/** Runs `script` (an ES module, in the package root) with {@link LIST_LOADS}; its stderr lines, once it exited 0. */
function runListingLoads(script: string): string[] {
  const run = spawnSync(process.execPath, [...LIST_LOADS, '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stderr.split('\n');
}

/** What {@link SCRIPT}'s one-tool server loads through the ESM loader (run once, for the tests that read it). */
let oneToolLoads: string[] | undefined;
const loadsOfOneToolServer = () =>
  (oneToolLoads ??= runListingLoads(SCRIPT).filter((line) => line.startsWith('LOADED ')));

describe('what a one-tool stdio server loads (package root import)', () => {
  it('loads none of the HTTP, logging, document or cluster dependencies', () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const loaded = JSON.parse(run.stdout) as string[];
    expect(LAZY.filter((name) => loaded.includes(name))).toEqual([]);
  });

  // #30 (W0): ESM-only packages do not show in Module._cache; a resolve hook lists what the ESM loader loads.
  it('loads no ESM-only dependency it does not use (jose, for authorization)', () => {
    const loaded = loadsOfOneToolServer();
    expect(loaded.some((line) => line.includes('/@modelcontextprotocol/server/'))).toBe(true); // the hook saw the loads
    expect(loaded.filter((line) => line.includes('/node_modules/jose/'))).toEqual([]);
  });

  // #30 (W0): code a one-tool stdio server never runs is in entries of its own (dist/lazy/), loaded with import()
  // on first use: the HTTP endpoint (routing, sessions, both eras' legs, authorization) when an HTTP server first
  // listens, an upstream's connection code when one is added, and the document layer's (DOCUMENT_ENTRIES).
  it.each(['endpoint', 'upstream', 'task-run', 'task-methods', ...DOCUMENT_ENTRIES])(
    'loads no %s code (dist/lazy/)',
    (lazy) => {
      const loaded = loadsOfOneToolServer().filter((line) => line.includes('/dist/'));
      expect(loaded.some((line) => line.includes('/dist/chunks/'))).toBe(true); // the hook saw the toolkit's own chunks
      expect(existsSync(join(ROOT, `dist/lazy/${lazy}.js`))).toBe(true);
      expect(loaded.filter((line) => line.includes(`/dist/lazy/${lazy}.js`))).toEqual([]);
    },
  );

  it('loads each document entry when a server with documents first needs it', () => {
    const script = `
      import { mkdtempSync, rmSync, writeFileSync, writeSync } from 'node:fs';
      import { tmpdir } from 'node:os';
      import { join } from 'node:path';
      import { PassThrough } from 'node:stream';
      const { StdioMcpServer, createDocumentTools } = await import('./dist/index.js');
      const step = (name) => writeSync(2, 'STEP ' + name + '\\n');
      step('imported');
      const folder = mkdtempSync(join(tmpdir(), 'lazy-docs-'));
      writeFileSync(join(folder, 'note.md'), '# Note\\n\\nplain words\\n');
      writeFileSync(join(folder, 'page.html'), '<h1>Page</h1><p>more words</p>');
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const server = new StdioMcpServer({ name: 'lazy', version: '1.0.0' }, { stdin, stdout });
      server.registerFolder(folder);
      server.registerTool(createDocumentTools(server.documents));
      await server.start();
      await server.documents.watchReady();
      step('registered');
      const answers = new Map();
      let buffer = '';
      stdout.setEncoding('utf8').on('data', (chunk) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\\n'); end >= 0; end = buffer.indexOf('\\n')) {
          const message = JSON.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 1);
          answers.get(message.id)?.(message);
        }
      });
      const request = (id, method, params) => new Promise((resolve, reject) => {
        answers.set(id, (message) => (message.error || message.result?.isError ? reject(new Error(JSON.stringify(message))) : resolve(message.result)));
        stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\\n');
      });
      await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } });
      const { resources } = await request(2, 'resources/list', {});
      const uri = (name) => resources.find((resource) => resource.name === name).uri;
      step('listed');
      await request(3, 'resources/read', { uri: uri('note.md') });
      step('read');
      await request(4, 'resources/read', { uri: uri('page.html') });
      step('converted');
      await request(5, 'tools/call', { name: 'read_document', arguments: { uri: uri('note.md'), length: 4 } });
      step('ranged');
      await request(6, 'tools/call', { name: 'search_documents', arguments: { query: 'plain' } });
      step('searched');
      await server.stop();
      rmSync(folder, { recursive: true, force: true });`;
    const lines = runListingLoads(script);
    const step = (name: string) => lines.indexOf(`STEP ${name}`);
    const entry = (name: string) =>
      lines.findIndex((line) => line.startsWith('LOADED ') && line.endsWith(`/dist/lazy/${name}.js`));
    // Each is loaded by the step that first needs it: after the one before (so not by the root import), by its end.
    const expected: Array<[entry: string, after: string, by: string]> = [
      ['document-watcher', 'imported', 'registered'],
      ['read-path', 'listed', 'read'],
      ['conversion-processes', 'read', 'converted'],
      ['text-range', 'converted', 'ranged'],
      ['search-index', 'ranged', 'searched'],
    ];
    const places = expected.map(([name, after, by]) => ({ name, at: entry(name), after: step(after), by: step(by) }));
    expect(
      places.filter(({ at, after, by }) => !(at > after && at < by)),
      lines.join('\n'),
    ).toEqual([]);
  });

  it('loads the HTTP endpoint when an HttpMcpServer starts, not when it is made', () => {
    const script = `
      import { writeSync } from 'node:fs';
      const { HttpMcpServer } = await import('./dist/index.js');
      const server = new HttpMcpServer({ name: 'lazy', version: '1.0.0' }, { port: 0 });
      writeSync(2, 'MADE\\n');
      await server.start();
      writeSync(2, 'STARTED ' + server.address.port + '\\n');
      await server.stop();`;
    const lines = runListingLoads(script);
    const made = lines.indexOf('MADE');
    const endpoint = lines.findIndex((line) => line.startsWith('LOADED ') && line.includes('/dist/lazy/endpoint.js'));
    expect(made).toBeGreaterThan(0);
    expect(endpoint, lines.join('\n')).toBeGreaterThan(made);
    expect(lines.some((line) => /^STARTED \d+$/.test(line))).toBe(true);
  });

  // #30 (W0 CLI): an ES import of a built-in runs every getter of its namespace: `node:fs` loads its file streams
  // (and on Node >= 22 its promises API, readline, directory streams, watchers), and on Node 24 `node:util` loads
  // worker threads. The CLI reads both with `nodeFs()`/`nodeUtil()`, so it answers before any of them is loaded.
  it('answers `serve --stdio` before loading the fs streams or worker threads', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'lazy-builtins-'));
    writeFileSync(join(folder, 'note.md'), '# Note\n');
    const atFirstWrite = `const write = process.stdout.write.bind(process.stdout);
      let first = true;
      process.stdout.write = (chunk, ...rest) => {
        if (first) {
          first = false;
          const found = process.moduleLoadList.filter((name) => /^NativeModule (internal\\/fs\\/streams|worker_threads)$/.test(name));
          process.stderr.write('BUILTINS ' + JSON.stringify(found) + '\\n');
        }
        return write(chunk, ...rest);
      };`;
    const cli = spawn(
      process.execPath,
      [
        '--import',
        `data:text/javascript,${encodeURIComponent(atFirstWrite)}`,
        'dist/cli/main.js',
        'serve',
        '--stdio',
        '-q',
        folder,
      ],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const timer = setTimeout(() => cli.kill('SIGKILL'), 20_000);
    try {
      let stderr = '';
      cli.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const answered = new Promise<void>((resolve) => cli.stdout.once('data', () => resolve()));
      cli.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
      );
      await answered;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(
        stderr.split('\n').find((line) => line.startsWith('BUILTINS ')),
        stderr,
      ).toBe('BUILTINS []');
    } finally {
      clearTimeout(timer);
      cli.kill('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
    }
  });

  // #30 (W0 CLI, W8): a Markdown document is text by its name and its bytes; only a PDF signature would
  // override that, so file-type (~30 modules) has nothing to decide and is not loaded to read it. Nor is the
  // MIME database (mime-types, CommonJS: listed by a preload that wraps Module._load): `md` is a common type.
  it('reads a folder of Markdown files without loading file-type or the MIME database', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'lazy-md-'));
    writeFileSync(join(folder, 'note.md'), '# Note\n\nplain words\n');
    const preloadDir = mkdtempSync(join(tmpdir(), 'lazy-preload-'));
    const preload = join(preloadDir, 'list-requires.cjs');
    writeFileSync(preload, LIST_REQUIRES);
    const args = [...LIST_LOADS, '--require', preload, 'dist/cli/main.js', 'serve', '--stdio', '-q', folder];
    const cli = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => cli.kill('SIGKILL'), 20_000);
    let stderr = '';
    cli.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      const answers = new Map<number, { result?: { resources?: Array<{ uri: string }>; contents?: unknown[] } }>();
      let buffer = '';
      let waiting: (() => void) | undefined;
      cli.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
          const message = JSON.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 1);
          if (typeof message.id === 'number') answers.set(message.id, message);
          waiting?.();
        }
      });
      const request = async (id: number, method: string, params: object) => {
        cli.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
        while (!answers.has(id)) await new Promise<void>((resolve) => (waiting = resolve));
        return answers.get(id)!;
      };
      await request(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      });
      cli.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      const listed = await request(2, 'resources/list', {});
      const uri = listed.result!.resources!.find((resource) => resource.uri.endsWith('note.md'))!.uri;
      const read = await request(3, 'resources/read', { uri });
      expect(read.result?.contents).toHaveLength(1);
      await request(4, 'tools/call', { name: 'search_documents', arguments: { query: 'plain' } });
      const loaded = stderr.split('\n').filter((line) => line.startsWith('LOADED '));
      expect(loaded.some((line) => line.includes('/node_modules/chokidar/'))).toBe(true); // the hook saw the CLI's loads
      expect(loaded.filter((line) => /\/node_modules\/(file-type|strtok3)\//.test(line))).toEqual([]);
      // #30 (W0 CLI): `serve` compiles none of the other commands' code (dev, list, call, gateway: the SDK
      // client, shell quoting, the servers config) nor the state-file store it was not asked for.
      const otherCommands =
        /\/dist\/chunks\/(dev-command|one-shot|inventory|gateway|connect-help|extras)-|\/node_modules\/(shell-quote|@modelcontextprotocol\/client)\//;
      expect(loaded.filter((line) => otherCommands.test(line))).toEqual([]);
      const required = stderr.split('\n').filter((line) => line.startsWith('REQUIRED '));
      expect(required).toContain('REQUIRED minisearch'); // the preload saw the CLI's lazy requires
      expect(required.filter((line) => /^REQUIRED mime-(types|db)$/.test(line))).toEqual([]);
      // #30 (W0 CLI): `serve --stdio` as a client starts it is parsed by node:util's parseArgs (src/cli/fast-serve.ts);
      // commander, with the node:child_process it requires, was ~11 ms of every start.
      expect(required.filter((line) => /^REQUIRED (commander|node:child_process|child_process)$/.test(line))).toEqual(
        [],
      );
    } finally {
      clearTimeout(timer);
      cli.kill('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
      rmSync(preloadDir, { recursive: true, force: true });
    }
  });
});
