import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpMcpServer, UserError, defineTool } from '../../src/index.js';
import { silentLogger } from '../support/in-memory.js';
import { CLI, ROOT, runCli } from './cli-process.js';

const SERVER_FILE = 'examples/dev-server.ts';
const SLEEPER = path.join(ROOT, 'test/fixtures/llm-chat-sleeper.mjs');
let folder: string;
let http: HttpMcpServer;
let url: string;

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'one-shot-'));
  writeFileSync(path.join(folder, 'note.md'), '# Note\nfrom the one-shot test\n');
  http = new HttpMcpServer({ name: 'http-target', version: '2.0.0' }, { port: 0, logger: silentLogger() });
  http.registerTool(
    defineTool({
      name: 'echo',
      description: 'Echoes its text.',
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    }),
  );
  http.registerTool(
    defineTool({
      name: 'fail',
      execute: () => {
        throw new UserError('this tool always fails');
      },
    }),
  );
  await http.start();
  url = http.address.url;
});
afterAll(async () => {
  await http?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('mcp-toolkit list / call on a server file (TypeScript through tsx)', () => {
  it('lists its tools, resources and prompts', async () => {
    const { code, stdout } = await runCli(['list', SERVER_FILE]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^tools \(2\):\n {2}greet - Greets someone by name\.\n {2}add - Adds two numbers\.\n/);
    expect(stdout).toMatch(/resources \(1\):\n {2}readme {2}content:\/\/readme {2}text\/markdown/);
    expect(stdout).toMatch(/prompts \(1\):\n {2}introduce - /);
  });

  it('calls a tool with --args', async () => {
    const { code, stdout } = await runCli(['call', SERVER_FILE, 'greet', '--args', '{"name":"Ada"}']);
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'Hello, Ada!\n' });
  });

  it('refuses --args that are not a JSON object, naming the flag', async () => {
    const { code, stderr } = await runCli(['call', SERVER_FILE, 'greet', '--args', '[1]']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/--args must be a JSON object/);
  });
});

describe('mcp-toolkit list / call on a stdio command', () => {
  const command = () => `${process.execPath} ${CLI} serve --stdio --quiet '${folder}'`;

  it('lists what the command serves', async () => {
    const { code, stdout } = await runCli(['list', command(), '--json']);
    expect(code).toBe(0);
    const inventory = JSON.parse(stdout) as { tools: Array<{ name: string }>; resources: Array<{ name: string }> };
    expect(inventory.tools.map((tool) => tool.name).sort()).toEqual([
      'list_documents',
      'read_document',
      'search_documents',
    ]);
    expect(inventory.resources.map((resource) => resource.name)).toEqual(['note.md']);
  });

  it('calls one of its tools', async () => {
    const { code, stdout } = await runCli(['call', command(), 'read_document', '--args', '{"uri":"note.md"}']);
    expect(code).toBe(0);
    expect(stdout).toContain('from the one-shot test');
  });

  // docs/cli.md: anything but a server file or a URL is a stdio command; an executable file (a package's bin)
  // was refused as "neither a .ts nor a .js file". Its path is taken whole, spaces included.
  it('runs an executable file given by its path', async () => {
    const bin = path.join(folder, 'bin dir', 'docs-server');
    mkdirSync(path.dirname(bin));
    writeFileSync(bin, `#!/bin/sh\nexec '${process.execPath}' '${CLI}' serve --stdio --quiet '${folder}'\n`, {
      mode: 0o755,
    });
    const { code, stdout } = await runCli(['list', bin, '--json']);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { resources: Array<{ name: string }> }).resources.map((r) => r.name)).toContain(
      'note.md',
    );
  });
});

describe('mcp-toolkit list / call on an HTTP URL', () => {
  it('lists the tools', async () => {
    const { code, stdout } = await runCli(['list', url]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^tools \(2\):\n {2}echo - Echoes its text\.\n {2}fail\n/);
  });

  it('calls a tool, and exits 1 on a tool error', async () => {
    const ok = await runCli(['call', url, 'echo', '--args', '{"text":"over http"}', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ content: [{ type: 'text', text: 'over http' }] });
    const failed = await runCli(['call', url, 'fail']);
    expect(failed).toMatchObject({ code: 1, stdout: 'this tool always fails\n' });
  });
});

describe('targets that cannot be reached', () => {
  it('name the target and the reason, exit code 1', async () => {
    const gone = await runCli(['list', 'http://127.0.0.1:9/mcp']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/could not connect to http:\/\/127\.0\.0\.1:9\/mcp: /);
    const missing = await runCli(['list', 'no-such-command-for-mcp-toolkit --stdio']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/could not connect to no-such-command-for-mcp-toolkit --stdio: .*ENOENT/);
  });
});

describe('a server file whose tool outlives the call', () => {
  it('call --timeout gives up, names the running call, and ends the lingering server after the grace period', async () => {
    const started = Date.now();
    // The tool sleeps 60 s, far past the timeout plus the 2 s grace, so a slow machine cannot blur the two.
    const { code, stderr } = await runCli(['call', SLEEPER, 'sleep', '--args', '{"seconds":60}', '--timeout', '300']);
    const elapsed = Date.now() - started;
    expect(code).toBe(1);
    expect(stderr).toMatch(/timed out/i);
    // The server said which call it could not stop, and the CLI said it ended the process.
    expect(stderr).toMatch(/still running: sleep \(request \d+, cancelled\)/);
    expect(stderr).toMatch(/is still running 2 s after its stdin closed .*SIGTERM/);
    expect(elapsed).toBeLessThan(25_000); // not the tool's 60 s
  });
});
