import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectorCommand } from '../../src/cli/connect-help.js';
import { ROOT, startCli, type CliProcess } from './cli-process.js';

const TOOLKIT = pathToFileURL(path.join(ROOT, 'dist/index.js')).href;

/** A TypeScript server file (type annotations: it only runs through tsx) with these tools, in a fresh folder. */
function serverFile(tools: string[], after = ''): string {
  const defs = tools
    .map(
      (name) =>
        `server.registerTool(defineTool({ name: '${name}', description: 'Tool ${name}.', execute: (): string => '${name}' }));`,
    )
    .join('\n');
  return [
    `import { StdioMcpServer, defineTool } from '${TOOLKIT}';`,
    `const server: StdioMcpServer = new StdioMcpServer({ name: 'edited', version: '1.0.0' });`,
    defs,
    'await server.start();',
    after,
  ].join('\n');
}

let cli: CliProcess | undefined;
const folders: string[] = [];
afterEach(async () => {
  if (cli && cli.child.exitCode === null) {
    cli.child.kill('SIGINT');
    await Promise.race([cli.exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    cli.child.kill('SIGKILL');
  }
  cli = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('mcp-toolkit dev', () => {
  it('runs examples/dev-server.ts through tsx, shows its tools, resources and prompts, and how to connect', async () => {
    cli = startCli(['dev', 'examples/dev-server.ts']);
    await cli.waitFor(/watching .* for changes/);
    const out = cli.stdout();
    expect(out).toMatch(/● connected to dev-example 1\.0\.0 \(protocol 2025-11-25, pid \d+\)/);
    expect(out).toMatch(/tools \(2\):\n\s+greet - Greets someone by name\.\n\s+add - Adds two numbers\./);
    expect(out).toMatch(/resources \(1\):\n\s+readme {2}content:\/\/readme {2}text\/markdown/);
    expect(out).toMatch(/prompts \(1\):\n\s+introduce/);
    // The Inspector command that runs on this Node (Node 22 from the registry before 22.19), then the server's.
    expect(out).toContain(`MCP Inspector:  ${inspectorCommand().join(' ')} `);
    expect(out).toMatch(/MCP Inspector: .* \S+node --import file:\S+tsx\S+ \S+dev-server\.ts/);
    expect(out).toContain('"mcpServers"');
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('restarts the server when the file is edited, and prints a line per list change', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'dev-edit-'));
    folders.push(folder);
    const file = path.join(folder, 'server.ts');
    writeFileSync(path.join(folder, 'package.json'), '{ "type": "module" }\n'); // an ESM app (top-level await)
    writeFileSync(file, serverFile(['alpha']));
    cli = startCli(['dev', file]);
    await cli.waitFor(/watching .* for changes/);
    expect(cli.stdout()).toMatch(/tools \(1\):\n\s+alpha - Tool alpha\./);
    const firstPid = /pid (\d+)/.exec(cli.stdout())![1];

    const mark = cli.stdout().length;
    // The edited file adds a tool, and disables one at run time once trigger.txt appears (a list
    // change while connected; .txt files are not watched, so the trigger restarts nothing).
    const trigger = JSON.stringify(path.join(folder, 'trigger.txt'));
    const poll = `const poll = setInterval(() => { if (existsSync(${trigger})) { clearInterval(poll); server.disableTool('alpha'); } }, 50);`;
    writeFileSync(file, serverFile(['alpha', 'beta'], `import { existsSync } from 'node:fs';\n${poll}`));
    await cli.waitFor(/server\.ts changed: restarting/, 20_000, mark);
    await cli.waitFor(/tools changed since the restart: \+beta \(now 2: alpha, beta\)/, 20_000, mark);
    await cli.waitFor(/tools \(2\):\n\s+alpha - Tool alpha\.\n\s+beta - Tool beta\./, 20_000, mark);
    writeFileSync(path.join(folder, 'trigger.txt'), 'now');
    await cli.waitFor(/tools changed: -alpha \(now 1: beta\)/, 20_000, mark);
    const secondPid = /pid (\d+)/.exec(cli.stdout().slice(mark))![1];
    expect(secondPid).not.toBe(firstPid);
    expect(() => process.kill(Number(firstPid), 0)).toThrow(); // the old server is gone

    // A file that does not compile is reported, and the next save brings the server back.
    const broken = cli.stdout().length;
    writeFileSync(file, 'this is not TypeScript (');
    await cli.waitFor(/✗ the server did not start \(/, 20_000, broken);
    writeFileSync(file, serverFile(['gamma']));
    await cli.waitFor(/tools \(1\):\n\s+gamma - Tool gamma\./, 20_000, broken);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('--url: runs a file that serves HTTP, connects over HTTP, and ends the process on Ctrl+C', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'dev-http-'));
    folders.push(folder);
    const file = path.join(folder, 'http-server.mjs');
    writeFileSync(
      file,
      [
        `import { HttpMcpServer, defineTool } from '${TOOLKIT}';`,
        "const server = new HttpMcpServer({ name: 'over-http', version: '3.0.0' }, { port: Number(process.env.PORT) });",
        "server.registerTool(defineTool({ name: 'ping', description: 'Answers pong.', execute: () => 'pong' }));",
        'await server.start();',
      ].join('\n'),
    );
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    cli = startCli(['dev', file, '--url', url], undefined, { PORT: String(port) });
    await cli.waitFor(/watching .* for changes/);
    expect(cli.stdout()).toMatch(/● connected to over-http 3\.0\.0 \(protocol [\d-]+, pid \d+\)/);
    expect(cli.stdout()).toMatch(/tools \(1\):\n\s+ping - Answers pong\./);
    expect(cli.stdout()).toContain(`--transport http --server-url ${url}`);
    const pid = Number(/pid (\d+)/.exec(cli.stdout())![1]);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    expect(() => process.kill(pid, 0)).toThrow(); // the server process ended with the CLI
  });
});

/** A TCP port free right now on 127.0.0.1. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
