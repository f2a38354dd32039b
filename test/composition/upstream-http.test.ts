// A gateway whose upstream is server-everything over Streamable HTTP (a child process on a free
// 127.0.0.1 port), beside an upstream that never starts. SIGKILL of the HTTP upstream: its tools
// leave (found by the health ping), the rest keeps working, and it returns when restarted.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpMcpServer, defineTool } from '../../dist/index.js';
import type { UpstreamHandle } from '../../dist/public/composition.js';
import { exitWithin } from '../e2e/http-helpers.js';
import {
  CLIENT_KINDS,
  connectGatewayClient,
  quiet,
  recordingLogger,
  until,
  type GatewayClient,
  EVERYTHING,
} from './gateway-clients.js';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts server-everything's Streamable HTTP mode on `port`; resolves once it listens. */
async function startEverythingHttp(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen: ${stderr}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!stderr.includes('listening')) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${stderr}`)));
  });
  return child;
}

describe('gateway: a Streamable HTTP upstream (server-everything) and one that never starts', () => {
  let port: number;
  let everything: ChildProcess | undefined;
  let gateway: HttpMcpServer;
  let remote: UpstreamHandle;
  let missing: UpstreamHandle;
  let clients: GatewayClient[] = [];

  beforeAll(async () => {
    port = await freePort();
    everything = await startEverythingHttp(port);
    gateway = new HttpMcpServer({ name: 'gateway', version: '1' }, { port: 0, logger: recordingLogger([]) });
    gateway.registerTool(defineTool({ name: 'local', execute: () => 'still here' }));
    remote = gateway.addUpstream({
      name: 'remote',
      url: `http://127.0.0.1:${port}/mcp`,
      pingIntervalMs: 300,
      pingTimeoutMs: 5_000, // a loaded machine may answer a ping late; a killed upstream refuses at once
      backoff: { initialMs: 200, maxMs: 400 },
    });
    missing = gateway.addUpstream({ name: 'missing', command: '/nonexistent/mcp-server', backoff: { initialMs: 100 } });
    await gateway.start();
    await remote.whenConnected();
    await quiet(500);
    clients = await Promise.all(CLIENT_KINDS.map((kind) => connectGatewayClient(kind, gateway.address.url)));
  }, 40_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await gateway?.stop();
    if (everything && everything.exitCode === null) {
      everything.kill('SIGKILL');
      await exitWithin(everything, 5_000);
    }
  }, 30_000);

  it('serves the HTTP upstream on its era while the missing one retries without blocking anything', async () => {
    expect(remote.status).toMatchObject({ state: 'connected', era: 'legacy', target: `http://127.0.0.1:${port}/mcp` });
    await until(() => missing.status.failures >= 2, 'the missing upstream to have failed twice');
    expect(['retrying', 'connecting']).toContain(missing.status.state);
    expect(missing.status.lastError).toMatch(/ENOENT|spawn/);
    const ready = await fetch(new URL('/ready', gateway.address.url));
    expect(ready.status).toBe(200); // a down upstream leaves the rest served
    const report = (await ready.json()) as { upstreams: Array<{ name: string; state: string; tools: number }> };
    expect(report.upstreams[0]).toMatchObject({ name: 'remote', state: 'connected' });
    expect(report.upstreams[1]).toMatchObject({ name: 'missing', tools: 0 });
    for (const client of clients) {
      const names = await client.names();
      expect(names).toEqual(expect.arrayContaining(['local', 'remote_echo', 'remote_get-sum']));
      expect(names.some((name) => name.startsWith('missing_'))).toBe(false);
      expect((await client.call('remote_echo', { message: client.kind })).content[0]?.text).toBe(
        `Echo: ${client.kind}`,
      );
      const seen: number[] = [];
      await client.call(
        'remote_trigger-long-running-operation',
        { duration: 0.3, steps: 3 },
        { onprogress: ({ progress }) => seen.push(progress) },
      );
      expect(seen, client.kind).toEqual([1, 2, 3]);
    }
  });

  it('SIGKILL: its tools leave (each client told once), local tools keep working, and it returns on restart', async () => {
    await quiet(300);
    const before = clients.map((client) => client.toolsChanged.count);
    everything!.kill('SIGKILL');
    await exitWithin(everything!, 5_000);
    await Promise.all(clients.map((client, i) => client.toolsChanged.waitFor(before[i]! + 1)));
    await quiet(300);
    expect(clients.map((client) => client.toolsChanged.count)).toEqual(before.map((count) => count + 1));
    for (const client of clients) {
      expect(await client.names()).toEqual(['local']);
      expect((await client.call('local')).content[0]?.text).toBe('still here');
    }
    expect(remote.status.state).not.toBe('connected');

    everything = await startEverythingHttp(port);
    await remote.whenConnected();
    await Promise.all(clients.map((client, i) => client.toolsChanged.waitFor(before[i]! + 2)));
    for (const client of clients) {
      await until(async () => (await client.names()).includes('remote_echo'), `${client.kind} to see remote_echo`);
      expect((await client.call('remote_echo', { message: 'again' })).content[0]?.text).toBe('Echo: again');
    }
  }, 30_000);
});
