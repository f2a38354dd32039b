import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type ClientKind } from '../support/clients.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE = path.join(ROOT, 'examples', 'llm-chat-app');
// Inside the repository, so the example's `import 'mcp-toolkit'` resolves to this package (dist/).
const OUT = path.join(ROOT, '.tmp', 'llm-chat-app-test');

/** Compiles the example alone (its toolkit import is the built package), as `npm run build:examples` does. */
function compileExample(): void {
  if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first.');
  rmSync(OUT, { recursive: true, force: true });
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(
    process.execPath,
    [
      tsc,
      '--ignoreConfig',
      ...['--outDir', OUT, '--rootDir', SOURCE],
      ...['--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2023'],
      ...['--types', 'node', '--strict', '--skipLibCheck', '--verbatimModuleSyntax', '--esModuleInterop'],
      path.join(SOURCE, 'main.ts'),
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  if (result.status !== 0) throw new Error(`compiling examples/llm-chat-app failed:\n${result.stdout}${result.stderr}`);
}

/** Starts the app on a free port; resolves with its URL once it prints `listening <url>`. */
function startApp(dataFile: string): Promise<{ child: ChildProcess; url: URL; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [path.join(OUT, 'main.js'), '--port', '0', '--docs', path.join(SOURCE, 'docs'), '--data', dataFile],
    { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT },
  );
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the app did not start within 15 s; stderr: ${stderr}`));
    }, 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening (\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: new URL(match[1]!), stderr: () => stderr });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
}

/** Sends SIGTERM by PID and waits (at most 10 s) for the exit code. */
function stopApp(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    process.kill(child.pid!, 'SIGTERM');
  });
}

describe('examples/llm-chat-app', () => {
  let dir: string;
  beforeAll(() => {
    compileExample();
    dir = mkdtempSync(path.join(os.tmpdir(), 'llm-chat-app-'));
  }, 150_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['v1', 'v2-modern'] as ClientKind[])(
    'serves its llm-chat package, docs and notebook; the settings screen toggles tools; onStop() saves (%s client)',
    async (kind) => {
      const dataFile = path.join(dir, `${kind}.json`);
      const { child, url, stderr } = await startApp(dataFile);
      try {
        const client = await connectClient(kind, kind === 'v1' ? new HttpV1(url) : new HttpV2(url));
        expect(client.instructions()).toMatch(/^A personal notebook\.\n\nNotebook tools: /);
        // delete_note starts disabled (the app's default setting).
        expect(await client.toolNames()).toEqual(['add_note', 'find_notes']);
        const added = await client.callTool('add_note', { title: 'Release', text: 'Friday 10:00', tags: ['release'] });
        expect(added.content[0]?.text).toBe('Added note "Release".');
        await client.callTool('add_note', { title: 'Retro', text: 'After the release' });
        const found = await client.callTool('find_notes', { words: ['release'] });
        expect(found.content.map((block) => block.text)).toEqual([
          '# Release\n\nFriday 10:00',
          '# Retro\n\nAfter the release',
        ]);
        const resources = (await client.resources()).map((resource) => resource.name);
        expect(resources).toEqual(expect.arrayContaining(['getting-started.md', 'tagging.md', 'notebook']));
        expect((await client.readResource('content://notebook')).contents[0]?.text).toContain('# Retro');

        // The settings screen switches delete_note on: the client is told and can call it.
        const changed = client.toolsChanged.count;
        const settings = new URL('/settings/tools/delete_note', url);
        const put = await fetch(settings, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ enabled: true }),
        });
        expect(put.status).toBe(200);
        await client.toolsChanged.waitFor(changed + 1);
        expect(await client.toolNames()).toEqual(['add_note', 'find_notes', 'delete_note']);
        const missing = await client.callTool('delete_note', { title: 'Nope' });
        expect(missing.isError).toBe(true);
        await client.close();
      } finally {
        expect(await stopApp(child)).toBe(0);
      }
      // onStop() ran: the notes and the switches are saved; the observer counted the calls.
      const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as { notes: unknown[]; disabledTools: string[] };
      expect(saved.notes).toHaveLength(2);
      expect(saved.disabledTools).toEqual([]);
      expect(stderr()).toMatch(/stopped: 4 tool calls \(1 failed\), 1 reads/);
    },
    60_000,
  );
});
