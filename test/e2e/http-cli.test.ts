import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient } from '../support/clients.js';
import { exitWithin } from './http-helpers.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

describe('the real CLI `serve` over HTTP (the default transport)', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'cli-http-'));
    writeFileSync(path.join(folder, 'notes.md'), '# Notes\n');
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('prints the endpoint URL on stderr, serves clients, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', folder], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MCP_TOOLKIT_LOG_LEVEL: 'warn' },
    });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      const timer = setTimeout(() => reject(new Error(`no URL on stderr: ${stderr}`)), 10_000);
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /MCP endpoint: (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
    const client = await connectClient('v1', new HttpV1(new URL(url)));
    expect((await client.resources()).map((resource) => resource.name)).toEqual(['notes.md']);
    await client.close();
    child.kill('SIGTERM');
    expect(await exitWithin(child, 10_000)).toBe(0);
    expect(stdout).toBe('');
  });

  it('refuses --stdio together with --http', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--http', folder], { stdio: 'ignore' });
    expect(await exitWithin(child, 10_000)).toBe(1);
  });
});
