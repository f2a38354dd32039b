// @needs redis-server
// The real CLI with `serve --http --redis URL`: two CLI processes join one cluster; a toggle
// made by another member (here the test, through createCluster) reaches both, and each client
// is told once. Redis unreachable: the CLI exits 1 with a message naming the flag to use, or with
// --redis-unavailable local serves at once and joins when redis-server starts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster } from '../../src/cluster/create-cluster.js';
import { connectClient, type TestClient } from '../support/clients.js';
import { freePort, RedisServer } from '../support/services.js';
import { silentLogger } from './replicas.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

let redis: RedisServer;
let folder: string;
const children: ChildProcess[] = [];

/** Starts `serve --http` with `args`; resolves the endpoint URL from the banner (stderr so far to `seen`). */
async function serve(args: string[], seen: (stderr: string) => void = () => {}): Promise<string> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args, folder], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, MCP_TOOLKIT_LOG_LEVEL: 'warn' },
  });
  children.push(child);
  return new Promise<string>((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no URL on stderr: ${stderr}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /MCP endpoint: (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (!match) return;
      seen(stderr);
      clearTimeout(timer);
      resolve(match[1]!);
    });
  });
}

beforeAll(async () => {
  redis = await RedisServer.start();
  folder = mkdtempSync(path.join(os.tmpdir(), 'cli-redis-'));
  writeFileSync(path.join(folder, 'notes.md'), '# Notes\n');
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM');
  await Promise.all(children.map((child) => child.exitCode === null && new Promise((r) => child.once('exit', r))));
  await redis?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('mcp-toolkit serve --http --redis', () => {
  it('two CLI replicas share the disabled set; each client is told once', async () => {
    const urls = [await serve(['--redis', redis.url]), await serve(['--redis', redis.url])];
    const clients: TestClient[] = await Promise.all(urls.map((url) => connectClient('v1', new HttpV1(new URL(url)))));
    try {
      const before = await clients[0]!.toolNames();
      expect(before.length).toBeGreaterThan(1);
      const victim = before[0]!;
      const admin = await createCluster({ redis: redis.url, logger: silentLogger });
      try {
        await admin.toolState.load();
        await admin.toolState.save([victim]);
      } finally {
        await admin.close();
      }
      await Promise.all(clients.map((client) => client.toolsChanged.waitFor(1, 5_000)));
      for (const client of clients) expect(await client.toolNames()).toEqual(before.slice(1));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(clients.map((client) => client.toolsChanged.count)).toEqual([1, 1]);
    } finally {
      await Promise.allSettled(clients.map((client) => client.close()));
    }
  }, 60_000);

  it('exits 1 with a clear message when Redis does not answer', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--redis', url, folder], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+ did not answer.*CLUSTER_UNAVAILABLE/s);
    // The advice names what a CLI user can do: a flag, not the library's option.
    expect(stderr).toContain('--redis-unavailable local');
    expect(stderr).not.toContain('onUnavailable');
  }, 20_000);

  it('refuses a bad --redis-unavailable value, and the flag without --redis', async () => {
    const bad = await failing(['--redis', 'redis://127.0.0.1:1', '--redis-unavailable', 'maybe']);
    expect(bad).toContain('--redis-unavailable must be fail or local, got "maybe"');
    expect(await failing(['--redis-unavailable', 'local'])).toContain('--redis-unavailable needs --redis <url>');
  }, 20_000);

  it('--redis-unavailable local serves now with local state and joins when Redis answers', async () => {
    const port = await freePort();
    let stderr = '';
    const url = await serve(['--redis', `redis://127.0.0.1:${port}`, '--redis-unavailable', 'local'], (text) => {
      stderr = text;
    });
    expect(stderr).toContain('Redis is unreachable: starting with local state');
    const client = await connectClient('v1', new HttpV1(new URL(url)));
    const late = await RedisServer.start(port);
    try {
      expect(await client.toolNames()).toContain('read_document');
      const member = await createCluster({ redis: late.url, logger: silentLogger });
      try {
        // Once the CLI has joined, a toggle made by another member reaches its client.
        await expect
          .poll(
            async () => {
              await member.toolState.load();
              await member.toolState.save(['read_document']);
              return (await client.toolNames()).includes('read_document');
            },
            { timeout: 15_000, interval: 500 },
          )
          .toBe(false);
      } finally {
        await member.close();
      }
    } finally {
      await client.close();
      await late.stop();
    }
  }, 40_000);
});

/** Runs the CLI with `args` until it exits; expects exit code 1 and returns its stderr. */
async function failing(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args, folder], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(1);
  return stderr;
}
