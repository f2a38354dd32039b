// The package as an app gets it: `npm pack` of this tree (built by `npm test`'s pretest), installed
// with `npm install <tarball>` into an empty folder outside the repository. The root and testing
// imports, a CommonJS require, a one-tool stdio server and the `mcp-toolkit` binary must all work,
// and every relative link in the shipped README and docs/ must resolve inside the tarball.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from '../support/clients.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const INSTALL_MS = 240_000;

let work: string;
let app: string;
let tarball: string;
let shipped: Set<string>;

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  work = mkdtempSync(path.join(os.tmpdir(), 'packed-install-'));
  app = path.join(work, 'app');
  // --ignore-scripts: prepack would rebuild dist/ under the other test files that import it.
  const packed = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT });
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = path.join(work, info!.filename);
  shipped = new Set(info!.files.map((file) => file.path));
  const clientVersion = JSON.parse(
    readFileSync(path.join(ROOT, 'node_modules/@modelcontextprotocol/client/package.json'), 'utf8'),
  ).version;
  // Valibot without @valibot/to-json-schema, the optional peer that lists its schemas.
  const valibotVersion = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/valibot/package.json'), 'utf8')).version;
  // The oldest zod the SDK accepts, as an app of its own may have it: the toolkit must share it (one copy).
  const zodVersion = oldestZodTheSdkAccepts();
  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'packed-app', private: true, type: 'module' }));
  await run(
    NPM,
    [
      'install',
      tarball,
      `@modelcontextprotocol/client@${clientVersion}`,
      `valibot@${valibotVersion}`,
      `zod@${zodVersion}`,
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
    ],
    { cwd: app, timeout: INSTALL_MS },
  );
  // Node resolves packages in every ancestor's node_modules: a stray one above the temp folder
  // (say /tmp/node_modules) would hand the app the optional peers this file proves it can do without.
  const stray = ancestorsOf(app).filter((folder) => existsSync(path.join(folder, 'node_modules')));
  if (stray.length > 0) {
    throw new Error(
      `node_modules above the test app would leak into it: ${stray.map((f) => path.join(f, 'node_modules')).join(', ')}`,
    );
  }
}, INSTALL_MS + 30_000);

/** The lowest version of the SDK's zod range (`^4.2.0` -> `4.2.0`). */
function oldestZodTheSdkAccepts(): string {
  const sdk = JSON.parse(
    readFileSync(path.join(ROOT, 'node_modules/@modelcontextprotocol/server/package.json'), 'utf8'),
  );
  const range = sdk.dependencies.zod as string;
  const lowest = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  if (!lowest) throw new Error(`the SDK's zod range is ${range}: teach this test to read it`);
  return lowest;
}

function ancestorsOf(folder: string): string[] {
  const parents: string[] = [];
  for (let current = path.dirname(folder); ; current = path.dirname(current)) {
    parents.push(current);
    if (path.dirname(current) === current) return parents;
  }
}

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const node = (file: string) => run(process.execPath, [file], { cwd: app, timeout: 20_000 });

type Client = Awaited<ReturnType<typeof connectClient>>;

/** Writes `source` as `<app>/<name>`, runs it as a stdio server for a v2 client, hands the client to `use`, then closes it. */
async function withAppServer(name: string, source: string, use: (client: Client) => Promise<void>): Promise<void> {
  const server = path.join(app, name);
  writeFileSync(server, source);
  const client = await connectClient(
    'v2-modern',
    new StdioV2({ command: process.execPath, args: [server], cwd: app, stderr: 'pipe' }),
  );
  try {
    await use(client);
  } finally {
    await client.close();
  }
}

describe('the packed tarball, installed into an empty app', () => {
  it('ships the built code and the binary', () => {
    expect(shipped.has('dist/index.js')).toBe(true);
    expect(shipped.has('dist/testing/index.js')).toBe(true);
    expect(shipped.has('dist/cli/main.js')).toBe(true);
    expect(existsSync(path.join(app, 'node_modules/.bin/mcp-toolkit'))).toBe(true);
  });

  it('resolves every relative link of the shipped README and docs inside the tarball', () => {
    const broken: string[] = [];
    for (const file of [...shipped].filter((name) => name.endsWith('.md'))) {
      const text = readFileSync(path.join(app, 'node_modules/mcp-toolkit', file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target!.startsWith('#')) continue;
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), target!.split('#')[0]!));
        const isFolder = [...shipped].some((name) => name.startsWith(`${resolved.replace(/\/$/, '')}/`));
        if (!shipped.has(resolved) && !isFolder) broken.push(`${file} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('imports the root and the testing subpath (ESM) and requires the root (CommonJS)', async () => {
    writeFileSync(
      path.join(app, 'imports.mjs'),
      `import { StdioMcpServer, HttpMcpServer, defineTool, ToolPackage } from 'mcp-toolkit';
import { connectInMemory } from 'mcp-toolkit/testing';
console.log([StdioMcpServer, HttpMcpServer, defineTool, ToolPackage, connectInMemory].map((value) => typeof value).join(','));`,
    );
    expect((await node('imports.mjs')).stdout.trim()).toBe('function,function,function,function,function');
    writeFileSync(
      path.join(app, 'require.cjs'),
      `const { StdioMcpServer, defineTool } = require('mcp-toolkit');
console.log(typeof StdioMcpServer, typeof defineTool);`,
    );
    expect((await node('require.cjs')).stdout.trim()).toBe('function function');
  });

  it('imports mcp-toolkit/openapi without its optional peer swagger-parser, and names it on first use', async () => {
    expect(existsSync(path.join(app, 'node_modules/@apidevtools/swagger-parser'))).toBe(false);
    writeFileSync(
      path.join(app, 'openapi.mjs'),
      `import { fromOpenAPI, OpenApiError } from 'mcp-toolkit/openapi';
try {
  await fromOpenAPI({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} });
} catch (error) {
  console.log(error instanceof OpenApiError, error.code, error.message);
}`,
    );
    expect((await node('openapi.mjs')).stdout.trim()).toBe(
      'true INVALID_OPENAPI fromOpenAPI needs the optional peer dependency @apidevtools/swagger-parser: npm install @apidevtools/swagger-parser',
    );
  });

  it('names @valibot/to-json-schema when a Valibot schema is used without it', async () => {
    writeFileSync(
      path.join(app, 'valibot.mjs'),
      `import * as v from 'valibot';
import { StdioMcpServer, defineTool } from 'mcp-toolkit';
const server = new StdioMcpServer({ name: 'v', version: '1.0.0' });
try {
  server.registerTool(defineTool({ name: 'greet', inputSchema: v.object({ name: v.string() }), execute: () => 'hi' }));
} catch (error) {
  console.log(error.code, error.message);
}`,
    );
    expect((await node('valibot.mjs')).stdout.trim()).toBe(
      'INVALID_TOOL Tool "greet" inputSchema is a Valibot schema: install @valibot/to-json-schema ' +
        '(npm install @valibot/to-json-schema) so it can be listed as JSON Schema.',
    );
  });

  // #30 (W0): an app that imports zod for its schemas and a toolkit with its own copy load zod twice at start
  // (about 100 modules): whatever zod the SDK takes, the toolkit takes too.
  it("shares the app's zod when it is the oldest the SDK accepts: one copy, and its schemas work", async () => {
    const installed = JSON.parse(readFileSync(path.join(app, 'node_modules/zod/package.json'), 'utf8')).version;
    expect(installed).toBe(oldestZodTheSdkAccepts());
    expect(existsSync(path.join(app, 'node_modules/mcp-toolkit/node_modules/zod'))).toBe(false);
    expect(existsSync(path.join(app, 'node_modules/@modelcontextprotocol/server/node_modules/zod'))).toBe(false);
    await withAppServer(
      'zod-server.mjs',
      `import { z } from 'zod';
import { StdioMcpServer, defineTool } from 'mcp-toolkit';
const server = new StdioMcpServer({ name: 'packed-zod', version: '1.0.0' });
server.registerTool(defineTool({
  name: 'repeat',
  description: 'Repeats a text',
  inputSchema: z.object({ text: z.string(), times: z.number().int().min(1) }),
  execute: ({ text, times }) => text.repeat(times),
}));
await server.start();`,
      async (client) => {
        expect(await client.toolNames()).toEqual(['repeat']);
        expect((await client.callTool('repeat', { text: 'ab', times: 2 })).content[0]?.text).toBe('abab');
        const refused = await client.callTool('repeat', { text: 'ab', times: 0 });
        expect(refused.isError).toBe(true);
      },
    );
  });

  it('runs a one-tool stdio server written against the installed package', async () => {
    await withAppServer(
      'server.mjs',
      `import { StdioMcpServer, defineTool } from 'mcp-toolkit';
const server = new StdioMcpServer({ name: 'packed', version: '1.0.0' });
server.registerTool(defineTool({
  name: 'shout',
  description: 'Upper-cases a text',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: ({ text }) => text.toUpperCase(),
}));
await server.start();`,
      async (client) => {
        expect(await client.toolNames()).toEqual(['shout']);
        expect((await client.callTool('shout', { text: 'packed' })).content[0]?.text).toBe('PACKED');
      },
    );
  });

  it('serves a folder through the installed `mcp-toolkit serve --stdio` binary', async () => {
    const folder = path.join(work, 'docs folder');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'note.md'), '# Packed\n');
    const client = await connectClient(
      'v1',
      new StdioV1({
        command: path.join(app, 'node_modules/.bin/mcp-toolkit'),
        args: ['serve', '--stdio', '--quiet', folder],
        cwd: app,
        stderr: 'pipe',
      }),
    );
    try {
      expect((await client.toolNames()).sort()).toEqual(['list_documents', 'read_document', 'search_documents']);
      expect((await client.resources()).map((resource) => resource.name)).toEqual(['note.md']);
    } finally {
      await client.close();
    }
  });
});
