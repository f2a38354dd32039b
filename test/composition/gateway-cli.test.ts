// `mcp-toolkit gateway --config servers.json` as a real child process, over HTTP and over stdio.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin } from '../e2e/http-helpers.js';
import { EVERYTHING, FILESYSTEM, until } from './gateway-clients.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const SECRET = 'cli-secret-value-31337';

/** Process ids of the direct children of `pid` (from /proc via ps). */
/** True while a process of that id exists (signal 0 checks without signalling). */
const isAlive = (pid: number) => spawnSync('kill', ['-0', String(pid)]).status === 0;

function childrenOf(pid: number): number[] {
  const out = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout;
  return out.split('\n').map(Number).filter(Boolean);
}

describe('mcp-toolkit gateway', () => {
  let dir: string;
  let config: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-cli-'));
    writeFileSync(path.join(dir, 'readme.md'), '# a document served beside the upstreams\n');
    config = path.join(dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { TOKEN: SECRET } },
          'my files': { command: process.execPath, args: [FILESYSTEM, dir] },
          off: { command: 'does-not-matter', disabled: true },
        },
      }),
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--http with --folder and --state-file: upstream tools, documents, persisted toggles; SIGTERM stops the children', async () => {
    const stateFile = path.join(dir, 'state.json');
    writeFileSync(
      stateFile,
      JSON.stringify({
        format: 'mcp-toolkit/tool-state',
        version: 1,
        savedAt: Date.now(),
        disabled: ['everything_echo'],
      }),
    );
    const child = spawn(
      process.execPath,
      [
        CLI,
        'gateway',
        '--config',
        config,
        '--port',
        '0',
        '--folder',
        dir,
        '--state-file',
        stateFile,
        '--upstream-wait',
        '120',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, MCP_TOOLKIT_LOG_LEVEL: 'debug' } },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await until(() => /MCP endpoint: (http:\/\/\S+)/.test(stderr), `the banner (stderr: ${stderr})`, 20_000);
      const url = /MCP endpoint: (http:\/\/\S+)/.exec(stderr)![1]!;
      expect(stderr).toMatch(/everything \(stdio: node \(\+2 arguments\)\): \d+ tools, legacy era/);
      expect(stderr).toMatch(/my_files \(stdio: node/);
      const client = new Client({ name: 'cli-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['everything_get-sum', 'my_files_list_directory', 'list_documents']),
      );
      expect(names).not.toContain('everything_echo'); // disabled in the state file
      const sum = await client.callTool({ name: 'everything_get-sum', arguments: { a: 2, b: 3 } });
      expect(JSON.stringify(sum.content)).toContain('5');
      await client.close();
      const upstreamPids = childrenOf(child.pid!);
      expect(upstreamPids.length).toBeGreaterThanOrEqual(2);
      child.kill('SIGTERM');
      expect(await exitWithin(child, 10_000)).toBe(0);
      await until(() => upstreamPids.every((pid) => !isAlive(pid)), 'the upstream children to exit', 5_000);
      expect(stderr).not.toContain(SECRET);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 40_000);

  it('--stdio: a stdio client sees and calls the upstream tools; closing stdin ends the gateway', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'gateway', '--config', config, '--stdio', '-q'],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cli-stdio', version: '1' });
    await client.connect(transport);
    const pid = transport.pid!;
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['everything_echo', 'my_files_read_text_file']));
      const echo = await client.callTool({ name: 'everything_echo', arguments: { message: 'via stdio' } });
      expect(echo.content).toEqual([{ type: 'text', text: 'Echo: via stdio' }]);
    } finally {
      await client.close();
    }
    await until(() => !isAlive(pid), 'the gateway to exit after stdin closed', 10_000);
  }, 40_000);

  it('an unusable config file fails at start, naming the file and the entry', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ mcpServers: { legacy: { url: 'http://127.0.0.1:1/sse', type: 'sse' } } }));
    const run = spawnSync(process.execPath, [CLI, 'gateway', '--config', bad, '--stdio'], {
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(bad);
    expect(run.stderr).toMatch(/"legacy": the HTTP\+SSE transport is not supported/);
  });

  it('a URL with a user name and password is refused at start (never retried), telling to use headers, quoting neither', () => {
    const bad = path.join(dir, 'userinfo.json');
    const url = 'http://alice:pw-in-url-4242@127.0.0.1:1/mcp';
    writeFileSync(bad, JSON.stringify({ mcpServers: { tickets: { url } } }));
    const started = Date.now();
    const run = spawnSync(process.execPath, [CLI, 'gateway', '--config', bad, '--port', '0'], {
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(run.status).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.stderr).toContain(bad);
    expect(run.stderr).toMatch(/"tickets": `url` contains a user name or password.*put them in `headers`/);
    expect(run.stderr).not.toContain('pw-in-url-4242');
    expect(run.stderr).not.toContain('alice');
  });

  it('a missing config file fails at start with a sentence naming it, not a stack', () => {
    const missing = path.join(dir, 'nowhere.json');
    const run = spawnSync(process.execPath, [CLI, 'gateway', '--config', missing, '--stdio'], {
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${missing}: no such file`);
    expect(run.stderr).not.toMatch(/ENOENT|\n\s+at /);
  });
});
