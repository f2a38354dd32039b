// `serve --admin` as users run it: a real CLI child process, toggles through the admin API,
// SIGKILL, restart; a truncated state file; a burst of concurrent toggles.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/services.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

interface Running {
  child: ChildProcess;
  settingsUrl: string;
  api: string;
  token: string;
  stderr: () => string;
}

const children: ChildProcess[] = [];
let root: string;
let folder: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'cli-admin-'));
  folder = path.join(root, 'docs');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'notes.md'), '# Notes\n');
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Starts `serve --admin` and waits (bounded) for the settings URL in the banner. */
function serve(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--admin', ...args, folder], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, XDG_CONFIG_HOME: path.join(root, 'config'), MCP_TOOLKIT_LOG_LEVEL: 'warn', ...env },
  });
  children.push(child);
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no settings URL on stderr: ${stderr}`)), 15_000);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /settings page[^:]*: (http:\/\/127\.0\.0\.1:\d+\/admin\/)#token=(\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({
          child,
          settingsUrl: match[0],
          api: `${match[1]}api/`,
          token: decodeURIComponent(match[2]!),
          stderr: () => stderr,
        });
      }
    });
  });
}

function toggle(running: Running, name: string, enabled: boolean): Promise<Response> {
  return fetch(`${running.api}tools/${name}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${running.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ enabled }),
  });
}

async function disabled(running: Running): Promise<string[]> {
  const response = await fetch(`${running.api}disabled`, { headers: { Authorization: `Bearer ${running.token}` } });
  return ((await response.json()) as { disabled: string[] }).disabled;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve() : child.once('exit', () => resolve()),
  );
}

describe('serve --admin (real CLI)', () => {
  it('keeps toggles across a SIGKILL, in the default state file under the config dir', async () => {
    const first = await serve([]);
    expect(first.stderr()).toMatch(/tool state file: .*config\/mcp-toolkit\/tool-state\/docs-[0-9a-f]{12}\.json/);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // generated: 32 random bytes
    const page = await fetch(first.api.replace(/api\/$/, '')); // the bundled CLI finds the page's files
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('MCP server settings');
    expect((await toggle(first, 'read_document', false)).status).toBe(200);
    expect((await toggle(first, 'search_documents', false)).status).toBe(200);
    first.child.kill('SIGKILL');
    await exited(first.child);

    const second = await serve([]);
    expect(second.token).not.toBe(first.token);
    expect(await disabled(second)).toEqual(['read_document', 'search_documents']);
    second.child.kill('SIGTERM');
    await exited(second.child);
  });

  it('a second process on the same (default) state file refuses to start, naming the first; a dead one is taken over', async () => {
    const env = { XDG_CONFIG_HOME: path.join(root, 'config-shared') };
    const first = await serve([], env);
    const file = /tool state file: (\S+)/.exec(first.stderr())![1]!;
    const pid = first.child.pid!;
    const second = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--admin', folder], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, MCP_TOOLKIT_LOG_LEVEL: 'warn', ...env },
    });
    children.push(second);
    let stderr = '';
    second.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await Promise.race([exited(second), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    expect(second.exitCode, `the second process kept running: ${stderr}`).toBe(1);
    expect(stderr).toContain(`The tool state file ${file} is in use by process ${pid} on this host`);
    expect(stderr).toContain('--state-file');
    expect(stderr).toContain('(TOOL_STATE_LOCKED)');
    // The first one still owns the file: its change is kept, nobody overwrote it.
    expect((await toggle(first, 'read_document', false)).status).toBe(200);
    expect(JSON.parse(readFileSync(file, 'utf8')).disabled).toEqual(['read_document']);

    first.child.kill('SIGKILL'); // no clean stop: its lock file stays, with a dead pid
    await exited(first.child);
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(pid);
    const third = await serve([], env);
    expect(await disabled(third)).toEqual(['read_document']);
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(third.child.pid);
    third.child.kill('SIGTERM'); // a clean stop gives the lock up
    await exited(third.child);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('a truncated state file: clear warning naming it, then the defaults (nothing disabled)', async () => {
    const file = path.join(root, 'truncated.json');
    writeFileSync(file, '{"format":"mcp-toolkit/tool-state","version":4,"savedAt":1,"disabled":["read_doc');
    const running = await serve(['--state-file', file], { MCP_TOOLKIT_LOG_LEVEL: 'info' });
    await expect.poll(() => running.stderr()).toContain(`The tool state file ${file} is unusable`);
    expect(await disabled(running)).toEqual([]);
    expect((await toggle(running, 'list_documents', false)).status).toBe(200);
    expect(JSON.parse(readFileSync(file, 'utf8')).disabled).toEqual(['list_documents']);
    running.child.kill('SIGTERM');
    await exited(running.child);
  });

  it('100 concurrent toggles: the file ends at the final state and parses', async () => {
    const file = path.join(root, 'burst.json');
    const token = 'a-given-token-for-the-burst-test';
    const running = await serve(['--state-file', file, '--admin-token', token]);
    expect(running.token).toBe(token);
    const names = ['list_documents', 'read_document', 'search_documents'];
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, index) => toggle(running, names[index % 3]!, index % 2 === 0)),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const final = await disabled(running);
    expect(JSON.parse(readFileSync(file, 'utf8')).disabled).toEqual(final);
    running.child.kill('SIGKILL');
    await exited(running.child);
    const again = await serve(['--state-file', file, '--admin-token', token]);
    expect(await disabled(again)).toEqual(final);
    again.child.kill('SIGTERM');
    await exited(again.child);
  });

  it('-q with a generated token still prints the settings URL (only that line); with a given token nothing', async () => {
    const quiet = await serve(['--http', '-q', '--state-file', path.join(root, 'quiet.json')]);
    expect(quiet.stderr()).toMatch(
      /^mcp-toolkit: settings page \(keep this URL private\): http:\/\/127\.0\.0\.1:\d+\/admin\/#token=\S+\n$/,
    );
    expect(quiet.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await disabled(quiet)).toEqual([]); // the printed token opens the API
    quiet.child.kill('SIGTERM');
    await exited(quiet.child);

    const port = await freePort();
    const given = spawn(
      process.execPath,
      [CLI, 'serve', '-q', '--port', String(port), '--admin', '--admin-token', 'a-given-token-0123456789', folder],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, XDG_CONFIG_HOME: path.join(root, 'config') } },
    );
    children.push(given);
    let stderr = '';
    given.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await expect
      .poll(
        () =>
          fetch(`http://127.0.0.1:${port}/admin/`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 15_000 },
      )
      .toBe(200);
    expect(stderr).toBe('');
    given.kill('SIGTERM');
    await exited(given);
  });

  it('takes the token from MCP_TOOLKIT_ADMIN_TOKEN and refuses --admin with --stdio', async () => {
    const running = await serve([], { MCP_TOOLKIT_ADMIN_TOKEN: 'token-from-the-environment' });
    expect(running.token).toBe('token-from-the-environment');
    running.child.kill('SIGTERM');
    await exited(running.child);
    const stdio = spawn(process.execPath, [CLI, 'serve', '--stdio', '--admin', folder], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    children.push(stdio);
    let stderr = '';
    stdio.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await exited(stdio);
    expect(stdio.exitCode).toBe(1);
    expect(stderr).toContain('--admin needs HTTP');
  });
});
