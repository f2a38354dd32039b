// The CLI's first-hour messages (#29 item 6): the banner's commands work as printed (quoted
// paths, an Inspector command for this Node, a runnable stdio line, no JSON log lines), and
// common mistakes fail with a message that says what to do.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse } from 'shell-quote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectorCommand, quote } from '../../src/cli/connect-help.js';
import { connectClient } from '../support/clients.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
let root: string;
let folder: string;

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'cli-papercuts-'));
  folder = path.join(root, "my docs (Tom's)");
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'note.md'), '# Note\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the CLI until `done(stderr)` holds (then SIGTERM) or it exits; resolves its exit code and stderr. */
function runCli(args: string[], done: (stderr: string) => boolean = () => false, env: NodeJS.ProcessEnv = {}) {
  const { MCP_TOOLKIT_LOG_LEVEL: _level, ...inherited } = process.env;
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...inherited, ...env },
  });
  let stderr = '';
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (done(stderr)) child.kill('SIGTERM');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('the banner', () => {
  it('prints an Inspector command that runs on this Node', () => {
    expect(inspectorCommand('20.20.2')).toEqual([
      'npx',
      '-y',
      '-p',
      'node@22',
      '-p',
      '@modelcontextprotocol/inspector',
      'mcp-inspector',
    ]);
    expect(inspectorCommand('22.18.0')[3]).toBe('node@22');
    expect(inspectorCommand('22.19.0')).toEqual(['npx', '@modelcontextprotocol/inspector']);
    expect(inspectorCommand('24.1.0')).toEqual(['npx', '@modelcontextprotocol/inspector']);
  });

  it('quotes only the words a shell would split or expand', () => {
    expect(quote(['npx', '--server-url', 'http://127.0.0.1:3000/mcp', '/tmp/a b', "it's", 'node@22'])).toBe(
      `npx --server-url http://127.0.0.1:3000/mcp '/tmp/a b' "it's" node@22`,
    );
  });

  it('over HTTP: no JSON log line, quoted paths, and a stdio command that serves the folder as printed', async () => {
    const { stderr } = await runCli(['serve', '--port', '0', folder], (text) => /serve --stdio .*\n/.test(text));
    const lines = stderr.trimEnd().split('\n');
    expect(lines.filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
    expect(stderr).toContain('--transport http --server-url http://127.0.0.1:');
    const printed = lines.at(-1)!.trim();
    const words = parse(printed) as string[];
    expect(words.slice(-3)).toEqual(['serve', '--stdio', folder]);
    const client = await connectClient(
      'v1',
      new StdioV1({ command: words[0]!, args: [...words.slice(1), '--quiet'], stderr: 'pipe' }),
    );
    try {
      expect((await client.resources()).map((resource) => resource.name)).toEqual(['note.md']);
    } finally {
      await client.close();
    }
  });

  it('over stdio: the Inspector line ends with the quoted stdio command', async () => {
    const { stderr } = await runCli(['serve', '--stdio', folder], (text) => text.includes('Claude Desktop ('));
    const inspector = stderr.split('\n').find((line) => line.includes('inspector'))!;
    const words = parse(inspector.trim()) as string[];
    expect(words.slice(-4)).toEqual([CLI, 'serve', '--stdio', folder]);
  });
});

describe('clear failures', () => {
  it('a port in use names the flag that picks another', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const { code, stderr } = await runCli(['serve', '--port', String(port), folder]);
      expect(code).toBe(1);
      expect(stderr).toContain(
        `port ${port} is already in use: pick another with --port <n> (--port 0 picks a free one)`,
      );
    } finally {
      taken.close();
    }
  });

  it('--stdio with --port or --host', async () => {
    for (const flags of [
      ['--port', '4000'],
      ['--host', '0.0.0.0'],
    ]) {
      const { code, stderr } = await runCli(['serve', '--stdio', ...flags, folder]);
      expect(code).toBe(1);
      expect(stderr).toContain(`${flags[0]} needs HTTP: drop --stdio`);
    }
  });

  // The OAuth flags are HTTP only (docs/cli.md); with --stdio they were accepted and ignored without a word.
  it('--stdio with --auth-issuer', async () => {
    const { code, stderr } = await runCli(['serve', '--stdio', '--auth-issuer', 'https://auth.example', folder]);
    expect(code).toBe(1);
    expect(stderr).toContain('--auth-issuer (and --auth-audience, --auth-scope) need HTTP: drop --stdio');
  });

  it('a folder starting with ~ that no shell expanded', async () => {
    const { code, stderr } = await runCli(['serve', '--stdio', '~/no-such-notes']);
    expect(code).toBe(1);
    expect(stderr).toContain(`which only a shell expands`);
    expect(stderr).toContain(path.join(os.homedir(), 'no-such-notes'));
  });

  it('--ext that matches nothing', async () => {
    const { stderr } = await runCli(['serve', '--port', '0', '--ext', 'foo', folder], (text) =>
      text.includes('MCP endpoint'),
    );
    expect(stderr).toContain(`--ext foo matched no file in ${folder}`);
  });
});
