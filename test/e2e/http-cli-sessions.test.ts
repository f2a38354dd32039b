import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE, listTools, openSession, post } from './http-helpers.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** Starts `mcp-toolkit serve --port 0 <flags> <folder>`; resolves with the child and its endpoint URL. */
function serve(folder: string, flags: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...flags, folder], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, MCP_TOOLKIT_LOG_LEVEL: 'warn' },
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`CLI did not start: ${stderr}`)), 10_000);
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`CLI exited ${code}: ${stderr}`)));
    const poll = setInterval(() => {
      const match = /MCP endpoint: (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    }, 20);
    child.once('exit', () => clearInterval(poll));
  });
}

/** #17 item 12: the CLI's session defaults cannot lock new clients out; flags set cap, idle timeout and policy. */
describe('CLI HTTP session flags', () => {
  let folder: string;
  let child: ChildProcess | undefined;
  beforeAll(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'cli-sessions-'));
    writeFileSync(path.join(folder, 'notes.md'), '# Notes\n');
  });
  afterEach(() => {
    if (child?.exitCode === null) child.kill('SIGTERM');
    child = undefined;
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('at --max-sessions the least recently used idle session makes room (default policy)', async () => {
    const started = await serve(folder, ['--max-sessions', '2']);
    child = started.child;
    const [first, second] = [await openSession(started.url), await openSession(started.url)];
    const third = await openSession(started.url); // never 503: `first` (least recently used) is evicted
    expect((await listTools(started.url, first)).status).toBe(404);
    expect((await listTools(started.url, second)).status).toBe(200);
    expect((await listTools(started.url, third)).status).toBe(200);
  });

  it('--session-limit-policy reject answers 503 at the cap; --session-idle-timeout reaps idle sessions', async () => {
    const started = await serve(folder, [
      '--max-sessions',
      '1',
      '--session-limit-policy',
      'reject',
      '--session-idle-timeout',
      '1',
    ]);
    child = started.child;
    const only = await openSession(started.url);
    const refused = await post(started.url, INITIALIZE);
    expect(refused.status).toBe(503);
    await refused.text();
    // Polling with initialize (not with the session itself, which would keep it active).
    const deadline = Date.now() + 5_000;
    for (;;) {
      const retry = await post(started.url, INITIALIZE);
      await retry.text();
      if (retry.status === 200) break;
      if (Date.now() > deadline) throw new Error('the idle session was not reaped within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await listTools(started.url, only)).status).toBe(404);
  });

  it('refuses a bad flag value with a message naming the flag', async () => {
    const bad = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--session-limit-policy', 'lifo', folder], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    bad.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => bad.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/--session-limit-policy must be evict-lru or reject/);
  });
});
