// A gateway (HttpMcpServer) in front of three real upstreams: @modelcontextprotocol/server-everything
// and @modelcontextprotocol/server-filesystem as stdio children, and one of our own servers over
// Streamable HTTP on the 2026-07-28 era. Clients of each era talk to the gateway over real HTTP.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpMcpServer, defineTool } from '../../dist/index.js';
import type { UpstreamHandle } from '../../dist/public/composition.js';
import {
  CLIENT_KINDS,
  connectGatewayClient,
  quiet,
  recordingLogger,
  until,
  type GatewayClient,
  EVERYTHING,
  FILESYSTEM,
} from './gateway-clients.js';

const ENV_SECRET = 'env-secret-4711-abcdef';
const BEARER = 'bearer-secret-0815-xyz';

describe('gateway: addUpstream() over stdio (server-everything, server-filesystem) and HTTP (our 2026-07-28 server)', () => {
  const logLines: string[] = [];
  const abortReasons: string[] = [];
  const seenAuth: string[] = [];
  let started = 0;
  let own: HttpMcpServer;
  let gateway: HttpMcpServer;
  let folder: string;
  let upstreams: Record<'everything' | 'fs' | 'own', UpstreamHandle>;
  let clients: GatewayClient[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'gateway-fs-'));
    writeFileSync(path.join(folder, 'note.txt'), 'hello from the filesystem server');
    own = new HttpMcpServer(
      { name: 'own', version: '1.0.0' },
      {
        port: 0,
        logger: recordingLogger([]),
        authenticate: (request) => {
          seenAuth.push(String(request.headers.authorization));
          return request.headers.authorization === `Bearer ${BEARER}`
            ? { token: BEARER, clientId: 'gw', scopes: [] }
            : undefined;
        },
      },
    );
    own.registerTool(
      defineTool({ name: 'greet', inputSchema: z.object({ who: z.string() }), execute: ({ who }) => `hello ${who}` }),
    );
    own.registerTool(
      defineTool({
        name: 'slow',
        inputSchema: z.object({ ms: z.number() }),
        execute: async ({ ms }) => {
          await new Promise((resolve) => setTimeout(resolve, ms));
          return `slept ${ms}`;
        },
      }),
    );
    own.registerTool(
      defineTool({
        name: 'progress',
        execute: async (_args, context) => {
          for (let step = 1; step <= 3; step += 1) {
            await new Promise((resolve) => setTimeout(resolve, 30));
            await context.reportProgress({ progress: step, total: 3 });
          }
          return 'done';
        },
      }),
    );
    own.registerTool(
      defineTool({
        name: 'wait_abort',
        execute: (_args, context) =>
          new Promise((_resolve, reject) => {
            started += 1;
            context.signal.addEventListener('abort', () => {
              abortReasons.push((context.signal.reason as { reason?: string })?.reason ?? 'unknown');
              reject(context.signal.reason);
            });
          }),
      }),
    );
    await own.start();

    gateway = new HttpMcpServer({ name: 'gateway', version: '1.0.0' }, { port: 0, logger: recordingLogger(logLines) });
    upstreams = {
      everything: gateway.addUpstream({
        name: 'everything',
        command: process.execPath,
        args: [EVERYTHING, 'stdio'],
        env: { API_TOKEN: ENV_SECRET },
        backoff: { initialMs: 1_500, maxMs: 3_000 },
      }),
      fs: gateway.addUpstream({ name: 'fs', command: process.execPath, args: [FILESYSTEM, folder] }),
      own: gateway.addUpstream({
        name: 'own',
        url: own.address.url,
        headers: { Authorization: `Bearer ${BEARER}` },
      }),
    };
    await gateway.start();
    await Promise.all(Object.values(upstreams).map((upstream) => upstream.whenConnected()));
    await quiet(500); // server-everything registers tools after initialize (its own list_changed)
    clients = await Promise.all(CLIENT_KINDS.map((kind) => connectGatewayClient(kind, gateway.address.url)));
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await gateway?.stop();
    await own?.stop();
    rmSync(folder, { recursive: true, force: true });
    expect(gateway.upstreams.every((status) => status.state === 'closed')).toBe(true);
  }, 30_000);

  it('connects each upstream on the era it speaks, and states show no secret', () => {
    const states = Object.fromEntries(gateway.upstreams.map((status) => [status.name, status]));
    expect(states.everything).toMatchObject({
      state: 'connected',
      era: 'legacy',
      target: 'stdio: node (+2 arguments)',
    });
    expect(states.fs).toMatchObject({ state: 'connected', era: 'legacy' });
    expect(states.own).toMatchObject({ state: 'connected', era: 'modern' });
    expect(seenAuth.every((header) => header === `Bearer ${BEARER}`)).toBe(true);
    const shown = JSON.stringify(gateway.upstreams);
    expect(shown).not.toContain(ENV_SECRET);
    expect(shown).not.toContain(BEARER);
  });

  it('every client kind lists the upstream tools under their namespaces, packaged by upstream', async () => {
    for (const client of clients) {
      const names = await client.names();
      expect(names, client.kind).toEqual(
        expect.arrayContaining(['everything_echo', 'fs_read_text_file', 'fs_list_directory', 'own_greet', 'own_slow']),
      );
    }
    const packages = new Map(gateway.getToolStates().map((state) => [state.tool.name, state.packageName]));
    expect(packages.get('everything_echo')).toBe('everything');
    expect(packages.get('fs_read_text_file')).toBe('fs');
    expect(packages.get('own_greet')).toBe('own');
  });

  it('forwards calls with their results, and upstream tool errors as isError results', async () => {
    for (const client of clients) {
      expect((await client.call('everything_echo', { message: client.kind })).content[0]?.text).toBe(
        `Echo: ${client.kind}`,
      );
      expect((await client.call('own_greet', { who: client.kind })).content[0]?.text).toBe(`hello ${client.kind}`);
      const note = await client.call('fs_read_text_file', { path: path.join(folder, 'note.txt') });
      expect(note.content[0]?.text).toBe('hello from the filesystem server');
      const outside = await client.call('fs_read_text_file', { path: '/etc/hostname' });
      expect(outside.isError).toBe(true);
      expect(outside.content[0]?.text).toMatch(/outside allowed directories|Access denied/i);
    }
  });

  it('invalid arguments come back as the upstream says, an argument error naming the field', async () => {
    for (const client of clients) {
      // Not checked here: the upstream validates them against the schema it listed.
      const ours = await client.call('own_greet', { who: 42 });
      expect(ours.isError, client.kind).toBe(true);
      expect(ours.content[0]?.text, client.kind).toMatch(/^Invalid arguments for tool "greet": who: /);
      const theirs = await client.call('everything_echo', {}); // server-everything: its SDK's -32602 as a result
      expect(theirs.isError, client.kind).toBe(true);
      expect(theirs.content[0]?.text, client.kind).toMatch(/-32602.*Invalid arguments for tool echo.*message/);
    }
  });

  it('forwards progress notifications, in order and before the result', async () => {
    for (const client of clients) {
      const seen: number[] = [];
      const result = await client.call('own_progress', {}, { onprogress: ({ progress }) => seen.push(progress) });
      expect(result.content[0]?.text, client.kind).toBe('done');
      expect(seen, client.kind).toEqual([1, 2, 3]);
      // server-everything writes its last progress right before its result; a direct SDK client often
      // drops it (it handles the result first), the gateway forwards it.
      const fromStdio: number[] = [];
      const long = await client.call(
        'everything_trigger-long-running-operation',
        { duration: 0.3, steps: 3 },
        { onprogress: ({ progress }) => fromStdio.push(progress) },
      );
      expect(long.content[0]?.text, client.kind).toMatch(/completed/);
      expect(fromStdio, client.kind).toEqual([1, 2, 3]);
    }
  });

  it('forwards cancellation: the upstream tool sees its signal abort', async () => {
    for (const [index, client] of clients.entries()) {
      const controller = new AbortController();
      const call = client.call('own_wait_abort', {}, { signal: controller.signal });
      await until(() => started === index + 1, `${client.kind}'s call to reach the upstream`);
      controller.abort();
      await expect(call).rejects.toThrow();
      await until(() => abortReasons.length === index + 1, `the upstream to see ${client.kind}'s cancellation`);
    }
    // The forwarded call is a 2026-07-28 HTTP request: the client cancels it by ending its stream.
    expect(abortReasons.every((reason) => reason === 'cancelled' || reason === 'disconnected')).toBe(true);
  });

  it("an upstream's JSON-RPC error reaches the caller with its code and message", async () => {
    own.disableTool('greet'); // the gateway still lists own_greet for a moment: the call reaches `own`
    const client = clients.find((candidate) => candidate.kind === 'v2-legacy')!;
    const failed = await client.call('own_greet', { who: 'x' }).catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: -32602 });
    expect(String((failed as Error).message)).toMatch(/Tool "greet" is disabled/);
    own.enableTool('greet');
    await until(async () => (await client.names()).includes('own_greet'), 'own_greet to return');
  });

  it("an upstream's list change tells each client exactly once", async () => {
    await quiet(300);
    const before = clients.map((client) => client.toolsChanged.count);
    own.registerTool(defineTool({ name: 'added_later', execute: () => 'new' }));
    await Promise.all(clients.map((client, i) => client.toolsChanged.waitFor(before[i]! + 1)));
    await quiet();
    expect(clients.map((client) => client.toolsChanged.count)).toEqual(before.map((count) => count + 1));
    for (const client of clients) {
      expect(await client.names()).toContain('own_added_later');
      expect((await client.call('own_added_later')).content[0]?.text).toBe('new');
    }
  });

  it('an operator disabling an upstream tool tells each client exactly once', async () => {
    const before = clients.map((client) => client.toolsChanged.count);
    gateway.disableTool('everything_echo');
    await Promise.all(clients.map((client, i) => client.toolsChanged.waitFor(before[i]! + 1)));
    await quiet();
    expect(clients.map((client) => client.toolsChanged.count)).toEqual(before.map((count) => count + 1));
    for (const client of clients) {
      expect(await client.names()).not.toContain('everything_echo');
      await expect(client.call('everything_echo', { message: 'x' })).rejects.toThrow(/disabled/);
    }
    gateway.enableTool('everything_echo');
    await Promise.all(clients.map((client, i) => client.toolsChanged.waitFor(before[i]! + 2)));
    expect(gateway.getToolStates().find((state) => state.tool.name === 'everything_echo')?.enabled).toBe(true);
  });

  it('an upstream killed with SIGKILL leaves (clients told once), its call in flight fails clearly, others keep working, and it returns', async () => {
    const pid = upstreams.everything.status.pid!;
    expect(pid).toBeGreaterThan(0);
    await quiet(300);
    const before = clients.map((client) => client.toolsChanged.count);
    const modern = clients.find((client) => client.kind === 'v2-modern')!;
    const inFlight = modern.call('everything_trigger-long-running-operation', { duration: 5, steps: 5 });
    const otherUpstream = modern.call('own_slow', { ms: 800 });
    const otherStdio = clients[0]!.call('fs_list_directory', { path: folder });
    await quiet(200);
    process.kill(pid, 'SIGKILL');

    const lost = await inFlight;
    expect(lost.isError).toBe(true);
    expect(lost.content[0]?.text).toMatch(/Upstream "everything" closed its connection during the call/);
    await Promise.all(clients.map((client, i) => client.toolsChanged.waitFor(before[i]! + 1)));
    await quiet(); // still down (backoff 1.5 s): no second notification
    expect(clients.map((client) => client.toolsChanged.count)).toEqual(before.map((count) => count + 1));
    expect(['retrying', 'connecting']).toContain(upstreams.everything.status.state);
    for (const client of clients) {
      const names = await client.names();
      expect(names.some((name) => name.startsWith('everything_'))).toBe(false);
      expect(names).toContain('own_greet');
    }
    expect((await otherUpstream).content[0]?.text).toBe('slept 800');
    expect((await otherStdio).content[0]?.text).toContain('note.txt');

    await upstreams.everything.whenConnected();
    expect(upstreams.everything.status.pid).not.toBe(pid);
    await Promise.all(clients.map((client, i) => client.toolsChanged.waitFor(before[i]! + 2)));
    for (const client of clients) {
      await until(
        async () => (await client.names()).includes('everything_echo'),
        `${client.kind} to see everything_echo again`,
      );
      expect((await client.call('everything_echo', { message: 'back' })).content[0]?.text).toBe('Echo: back');
    }
  }, 30_000);

  it("never logs the upstreams' environment or headers", () => {
    const all = logLines.join('\n');
    expect(all).toContain('upstream connected');
    expect(all).not.toContain(ENV_SECRET);
    expect(all).not.toContain(BEARER);
  });
});
