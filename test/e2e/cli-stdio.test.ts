import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type ClientKind } from '../support/clients.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
let folder: string;

beforeAll(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'cli-docs-'));
  writeFileSync(path.join(folder, 'readme.md'), '# Hello\nfrom the CLI test\n');
  mkdirSync(path.join(folder, 'nested'));
  writeFileSync(path.join(folder, 'nested', 'data.json'), '{"answer": 42}\n');
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.each<ClientKind>(['v1', 'v2-modern'])('the real CLI `serve --stdio` with the %s client', (kind) => {
  it('serves the folder as resources plus the document tools', async () => {
    const params = {
      command: process.execPath,
      args: [CLI, 'serve', '--stdio', '--quiet', folder],
      stderr: 'pipe' as const,
    };
    const client = await connectClient(kind, kind === 'v1' ? new StdioV1(params) : new StdioV2(params));
    try {
      expect((await client.toolNames()).sort()).toEqual(['list_documents', 'read_document', 'search_documents']);
      const resources = await client.resources();
      expect(resources.map((r) => [r.name, r.mimeType]).sort()).toEqual([
        ['nested/data.json', 'application/json'],
        ['readme.md', 'text/markdown'],
      ]);
      const listed = await client.callTool('list_documents', {});
      expect(JSON.stringify(listed.structuredContent)).toContain('nested/data.json');
      const read = await client.callTool('read_document', { uri: 'readme.md' });
      expect(read.content[0]?.text).toContain('from the CLI test');
      const missing = await client.callTool('read_document', { uri: 'nope.md' });
      expect(missing.isError).toBe(true);
      expect(missing.content[0]?.text).toMatch(/list_documents/);
      const json = resources.find((r) => r.name === 'nested/data.json')!;
      expect((await client.readResource(json.uri)).contents[0]?.text).toContain('42');
    } finally {
      await client.close();
    }
  });
});

describe.each<ClientKind>(['v1', 'v2-modern'])('the CLI watches its folder (%s client)', (kind) => {
  it('a file added on disk is listed and the client is told', async () => {
    const live = mkdtempSync(path.join(os.tmpdir(), 'cli-watch-'));
    writeFileSync(path.join(live, 'first.md'), '# first');
    const params = {
      command: process.execPath,
      args: [CLI, 'serve', '--stdio', '--quiet', live],
      stderr: 'pipe' as const,
    };
    const client = await connectClient(kind, kind === 'v1' ? new StdioV1(params) : new StdioV2(params));
    try {
      // No wait for the watcher: a file added before it is ready is found by its rescan once ready.
      writeFileSync(path.join(live, 'second.md'), '# second');
      await client.resourcesChanged.waitFor(1, 10_000);
      expect((await client.resources()).map((r) => r.name).sort()).toEqual(['first.md', 'second.md']);
    } finally {
      await client.close();
      rmSync(live, { recursive: true, force: true });
    }
  });
});

describe('stdio purity and shutdown', () => {
  it('writes only JSON-RPC to stdout, logs to stderr, and exits when stdin closes', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--stdio', folder], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_documents', arguments: {} } });
    send({ jsonrpc: '2.0', id: 4, method: 'resources/list' });
    child.stdin.write('this is not json\n');
    child.stdin.write('{"not":"json-rpc"}\n');
    send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'read_document', arguments: { uri: 42 } } });
    send({ jsonrpc: '2.0', id: 6, method: 'no/such/method' });
    await waitUntil(() => (stdout.match(/"id":6/) ? true : false), 10_000);
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    expect(await exited).toBe(0);
    clearTimeout(timer);

    const lines = stdout.split('\n').filter((line) => line.length > 0);
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    const byId = new Map(lines.map((line) => JSON.parse(line)).map((message) => [message.id, message]));
    expect(byId.get(5).result.isError).toBe(true);
    expect(byId.get(6).error.code).toBe(-32601);
    expect(byId.get(null).error.code).toBe(-32600);
    expect(stderr).toContain('serving 2 document(s)');
  });
});

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
