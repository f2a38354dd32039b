// #24 item 15: at MCP_TOOLKIT_LOG_LEVEL=debug a library StdioMcpServer and the CLI write the same
// diagnostics to stderr (pino JSON lines) for bad input lines, unknown methods and broken PDFs.
// Real child processes; needs `npm run build` (the fixture and the CLI run from dist/).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCorruptPdf, makeTempDir, writeFile } from '../fixtures/document-builders.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/library-stdio-fixture.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
let folder: string;

beforeAll(async () => {
  folder = (await makeTempDir('stdio-debug-')).dir;
  await writeFile(folder, 'broken.pdf', makeCorruptPdf());
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** Runs `args` as a child, writes the requests, waits for `answers` responses, closes stdin; returns the stderr log lines. */
async function run(args: string[], level: string): Promise<LogLine[]> {
  const uri = `file://${path.join(folder, 'broken.pdf')}`;
  const input = [
    'not json',
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'nope/unknown' }),
    JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri } }),
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, MCP_TOOLKIT_LOG_LEVEL: level },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.write(`${input.join('\n')}\n`);
  const deadline = Date.now() + 15_000;
  while ((stdout.match(/\n/g)?.length ?? 0) < 4) {
    if (Date.now() > deadline) throw new Error(`no answers; stdout: ${stdout}; stderr: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.stdin.end();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => (child.kill('SIGKILL'), resolve()), 10_000);
    child.once('exit', () => (clearTimeout(timer), resolve()));
  });
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** What the diagnostics say, without times and pids. */
const diagnostics = (lines: LogLine[]) =>
  lines
    .filter((line) => line.msg.startsWith('stdio: '))
    .map(({ msg, method, code, line }) => ({ msg, method, code, line }));

describe('debug diagnostics on stdio (#24 item 15)', () => {
  it('a library StdioMcpServer logs bad lines, unknown methods and broken PDFs at debug, as the CLI does', async () => {
    const library = await run([FIXTURE, folder], 'debug');
    const cli = await run([CLI, 'serve', '--stdio', folder], 'debug');
    expect(diagnostics(library)).toEqual([
      { msg: 'stdio: refused an input line', method: undefined, code: -32700, line: 'not json' },
      { msg: 'stdio: answered a request with an error', method: 'nope/unknown', code: -32601, line: undefined },
      { msg: 'stdio: answered a request with an error', method: 'resources/read', code: -32603, line: undefined },
    ]);
    expect(library.find((line) => line.method === 'resources/read')?.error).toMatch(/not a valid PDF or is corrupt/);
    for (const line of library) expect(line.level).toBe(20); // debug, nothing louder
    expect(diagnostics(cli)).toEqual(diagnostics(library));
  }, 40_000);

  it('at the default level (info) neither writes them', async () => {
    expect(diagnostics(await run([FIXTURE, folder], 'info'))).toEqual([]);
  }, 20_000);
});
