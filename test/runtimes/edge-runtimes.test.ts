// The fetch handler on real runtimes, from their npm packages: Bun, Deno and Cloudflare's workerd (no
// nodejs_compat) each serve examples/edge on 127.0.0.1; the SDK clients talk real HTTP to them.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from '../support/clients.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const edge = path.join(root, 'examples/edge');
/** The admin token: workerd.capnp binds this value; Bun and Deno read it from the environment. */
const ADMIN_TOKEN = 'edge-admin-token';
const START_TIMEOUT_MS = 30_000;

/** A runtime binary installed by npm (devDependencies `bun`, `deno`, `workerd`); fails loudly when absent. */
function binary(name: string): string {
  const file = path.join(root, 'node_modules/.bin', name);
  if (!existsSync(file)) throw new Error(`${name} is not installed: run npm install (it is a devDependency)`);
  return file;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function run(command: string, args: string[]): Promise<void> {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${code}):\n${output}`);
}

interface Runtime {
  name: string;
  /** Starts the example; resolves with its MCP URL once it answers. */
  start(): Promise<{ child: ChildProcess; url: string }>;
}

/** Spawns `command` and waits for `MCP on <url>` on stdout (Bun and Deno print the port they bound). */
function spawnPrinting(command: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, PORT: '0', ADMIN_TOKEN, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const url = /MCP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${code}):\n${output}`));
    });
  });
}

/** Polls until `url` answers at all (workerd prints nothing when it listens). */
async function answering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the runtime exited (${child.exitCode})`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const RUNTIMES: Runtime[] = [
  { name: 'Bun', start: () => spawnPrinting(binary('bun'), [path.join(edge, 'bun.ts')]) },
  {
    name: 'Deno',
    start: () =>
      spawnPrinting(binary('deno'), [
        'run',
        '--sloppy-imports',
        '--allow-net=127.0.0.1',
        '--allow-env',
        '--allow-read',
        path.join(edge, 'deno.ts'),
      ]),
  },
  {
    name: 'workerd (no nodejs_compat)',
    async start() {
      await run(process.execPath, [path.join(edge, 'build-worker.mjs')]); // fails on any node: import
      const port = await freePort();
      const child = spawn(
        binary('workerd'),
        ['serve', path.join(edge, 'workerd.capnp'), '--socket-addr', `http=127.0.0.1:${port}`],
        { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
      );
      const url = `http://127.0.0.1:${port}/mcp`;
      try {
        await answering(url, child);
      } catch (error) {
        child.kill('SIGKILL');
        throw error;
      }
      return { child, url };
    },
  },
];

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, 'SIGKILL');
  return exited;
}

async function toggle(url: string, tool: string, enabled: boolean): Promise<void> {
  const admin = new URL(`/admin/tools/${tool}?enabled=${enabled}`, url);
  const response = await fetch(admin, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(response.status).toBe(200);
  const { tools } = (await response.json()) as { tools: Array<Record<string, unknown>> };
  // Only names and states go out: never the tool object with its handler and schemas.
  expect(tools.find((state) => state.name === tool)).toEqual({ name: tool, enabled });
  for (const state of tools) expect(state).not.toHaveProperty('tool');
}

const text = (result: { content: Array<{ text?: string }> }) => result.content[0]?.text;

describe.each(RUNTIMES)('fetch handler on $name', (runtime) => {
  let child: ChildProcess | undefined;
  let url: string;
  let modern: TestClient;
  let legacy: TestClient;

  beforeAll(async () => {
    ({ child, url } = await runtime.start());
    modern = await connectClient('v2-modern', new HttpV2(new URL(url)));
    legacy = await connectClient('v1', new HttpV1(new URL(url)));
  }, 2 * START_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.allSettled([modern?.close(), legacy?.close()]);
    await stop(child);
  }, 10_000);

  it('lists and calls tools with the v2 client on 2026-07-28 and the v1 client (stateless handshake era)', async () => {
    for (const client of [modern, legacy]) {
      expect((await client.toolNames()).sort()).toEqual(['add', 'echo']);
      expect(text(await client.callTool('echo', { text: 'hi' }))).toBe('echo: hi');
      expect(text(await client.callTool('add', { a: 2, b: 3 }))).toBe('5');
    }
  }, 30_000);

  it('a tool disabled between requests is gone for both clients, and back once enabled', async () => {
    const before = modern.toolsChanged.count;
    await toggle(url, 'add', false);
    for (const client of [modern, legacy]) {
      expect(await client.toolNames()).toEqual(['echo']);
      const refused = await client.callTool('add', { a: 1, b: 1 }).then(
        (result) => (result.isError ? text(result) : 'answered'),
        (error: Error) => error.message,
      );
      expect(refused).toMatch(/add/);
    }
    await toggle(url, 'add', true);
    for (const client of [modern, legacy]) expect((await client.toolNames()).sort()).toEqual(['add', 'echo']);
    expect(text(await legacy.callTool('add', { a: 4, b: 4 }))).toBe('8');
    // Both toggles reached the 2026-07-28 client's subscriptions/listen stream (one isolate/process here).
    await modern.toolsChanged.waitFor(before + 2);
  }, 30_000);
});
