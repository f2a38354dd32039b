// #17 fuzz test: seeded hostile requests of every failure class on stdio and HTTP, both eras,
// bounded in time. Set FUZZ_SEED to replay a run; FUZZ_MS to change the time per transport.
// Checks: the server never dies, every answer is a well-formed JSON-RPC message or a clear HTTP
// status (never 5xx), nothing from outside the served folder appears, memory stays bounded.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { messages, openSession, post, sessionHeaders, startServer } from '../e2e/http-helpers.js';
import { MODERN_META, RawStdio, type RpcMessage } from '../support/raw-stdio.js';
import { populate } from './targets.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
const BUDGET_MS = Number(process.env.FUZZ_MS ?? 5_000);
const SECRET = 'TOP-SECRET-7f3a9c';

/** mulberry32: a small seeded PRNG, so a failing run can be replayed with FUZZ_SEED. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let root: string;
let served: string;
let secretPath: string;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'fuzz-'));
  served = path.join(root, 'served');
  await fs.mkdir(served);
  await fs.writeFile(path.join(served, 'a.md'), '# A\nhello');
  await fs.writeFile(path.join(served, 'b.txt'), 'plain text');
  secretPath = path.join(root, 'secret.txt');
  await fs.writeFile(secretPath, SECRET);
  await fs.symlink(secretPath, path.join(served, 'link.txt')); // points outside: must never be served
});
afterAll(() => fs.rm(root, { recursive: true, force: true }));

/** Hostile inputs, one generator per failure class of issue #17. */
function generators(rand: () => number) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const junk = (): unknown =>
    pick([
      null,
      true,
      -1,
      1.5,
      1e308,
      '',
      'x'.repeat(Math.floor(rand() * 5000)),
      'a\ud800b',
      '\udc00',
      [],
      [1, 2],
      {},
      { nested: { deep: [null] } },
      '../../../etc/passwd',
      '%2e%2e%2f',
    ]);
  const methods = [
    'initialize',
    'ping',
    'tools/list',
    'tools/call',
    'prompts/list',
    'prompts/get',
    'resources/list',
    'resources/read',
    'resources/templates/list',
    'resources/subscribe',
    'resources/unsubscribe',
    'completion/complete',
    'logging/setLevel',
    'server/discover',
    'subscriptions/listen',
    'nope/unknown',
  ];
  const secretUri = pathToFileURL(secretPath).href;
  const uris = [
    secretUri,
    secretUri.replace('secret', '%73ecret'),
    `${pathToFileURL(served).href}/../secret.txt`,
    `${pathToFileURL(served).href}/%2e%2e/secret.txt`,
    `${pathToFileURL(served).href}/link.txt`,
    `${pathToFileURL(served).href}/a.md`,
    `${pathToFileURL(served).href}/%61.md`,
    'FILE:///etc/passwd',
    'memo://note/%7Euser',
    'memo://item/..%2F..%2Fsecret',
    'memo://item/\ud800',
    'file:///proc/self/environ',
  ];
  let id = 1000;
  const nextId = () => (rand() < 0.1 ? pick([1.5, 1e308, null, {}, true]) : ++id);
  return {
    invalidParams: () => ({
      jsonrpc: '2.0',
      id: nextId(),
      method: pick(methods),
      params: { [pick(['name', 'uri', 'cursor', 'level', 'ref', 'arguments'])]: junk() },
    }),
    cursors: () => ({
      jsonrpc: '2.0',
      id: nextId(),
      method: pick(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']),
      params: { cursor: pick(['bogus', 'bzo5OTk5', '', 'o:1', junk()]) },
    }),
    badEnvelope: () => ({
      jsonrpc: '2.0',
      id: nextId(),
      method: pick(methods),
      params: {
        _meta: pick([
          null,
          5,
          { progressToken: junk() },
          { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': junk() },
        ]),
      },
    }),
    batch: () => Array.from({ length: Math.floor(rand() * 3) }, () => ({ jsonrpc: '2.0', id: ++id, method: 'ping' })),
    garbage: () =>
      pick([
        '{',
        'null',
        '"str"',
        '[[[',
        '{"jsonrpc":"2.0"}',
        '\u0000\u0001',
        '{"id":1,"method":"ping"}',
        '{"jsonrpc":"1.0","id":1,"method":"ping"}',
      ]),
    unicode: () => ({
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: {
        name: pick(['echo', 'nope\ud800']),
        arguments: { text: `x\ud800y\udfffz${'\ud83d'.repeat(Math.floor(rand() * 3))}` },
      },
    }),
    uris: () => ({
      jsonrpc: '2.0',
      id: ++id,
      method: pick(['resources/read', 'resources/subscribe', 'resources/read']),
      params: { uri: pick(uris) },
    }),
    completion: () => ({
      jsonrpc: '2.0',
      id: ++id,
      method: 'completion/complete',
      params: {
        ref: {
          type: 'ref/resource',
          uri: pick([...uris, 'memo://item/{id}', `${pathToFileURL(served).href}/{+path}`]),
        },
        argument: { name: pick(['id', 'path']), value: pick(['', '..', '../..', '%2e']) },
      },
    }),
    reinitialize: () => ({
      jsonrpc: '2.0',
      id: ++id,
      method: 'initialize',
      params: {
        protocolVersion: pick(['2025-11-25', '1999-01-01', junk()]),
        capabilities: pick([{}, junk()]),
        clientInfo: { name: 'evil', version: '1' },
      },
    }),
    big: () => ({
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: { name: 'big', arguments: { bytes: Math.floor(rand() * 200_000) } },
    }),
    pick,
  };
}

type Generators = ReturnType<typeof generators>;
const CLASSES = [
  'invalidParams',
  'cursors',
  'badEnvelope',
  'batch',
  'garbage',
  'unicode',
  'uris',
  'completion',
  'reinitialize',
  'big',
] as const;

function nextInput(gen: Generators): unknown {
  return gen[gen.pick(CLASSES)]();
}

/** Every string field is well-formed, ids are valid, and an error has an integer code and a message. */
function checkMessage(message: RpcMessage, where: string): void {
  expect(message.jsonrpc, where).toBe('2.0');
  const text = JSON.stringify(message);
  expect(text, where).not.toContain(SECRET);
  expect(/\\ud[89a-f][0-9a-f]{2}/i.test(text), `${where}: lone surrogate in ${text.slice(0, 200)}`).toBe(false);
  if ('id' in message)
    expect(message.id === null || ['string', 'number'].includes(typeof message.id), where).toBe(true);
  if (message.error) {
    expect(Number.isInteger(message.error.code), where).toBe(true);
    expect(typeof message.error.message, where).toBe('string');
  }
}

function withEnvelope(input: unknown, modern: boolean): unknown {
  if (!modern || typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const message = input as { params?: unknown };
  const params = message.params;
  if (params !== undefined && (typeof params !== 'object' || params === null)) return input;
  const own = (params as { _meta?: unknown } | undefined)?._meta;
  if (own !== undefined) return input; // the generator chose the envelope (often a broken one)
  return { ...message, params: { ...(params as object), _meta: MODERN_META } };
}

describe('fuzz (seed ' + SEED + ')', () => {
  it.each(['legacy', 'modern'] as const)(
    'stdio %s: survives, answers well-formed JSON-RPC, leaks nothing',
    async (era) => {
      const gen = generators(prng(SEED + (era === 'modern' ? 1 : 0)));
      const raw = new RawStdio({ maxMessageBytes: 100_000 });
      populate(raw.server);
      raw.server.registerFolder(served);
      await raw.open(era);
      const heapBefore = process.memoryUsage().heapUsed;
      const deadline = Date.now() + BUDGET_MS;
      let sent = 0;
      while (Date.now() < deadline) {
        const input = withEnvelope(nextInput(gen), era === 'modern');
        raw.send(typeof input === 'string' ? input : JSON.stringify(input));
        sent += 1;
        if (sent % 50 === 0) {
          // Still alive and answering in order: a ping with a fresh id comes back.
          const alive = await raw.request(`alive-${sent}`, 'tools/list', {}, era === 'modern');
          expect(alive.result, `seed ${SEED}, after ${sent} inputs`).toBeDefined();
        }
      }
      const last = await raw.request('last', 'tools/list', {}, era === 'modern');
      expect(last.result).toBeDefined();
      for (const message of raw.received) checkMessage(message, `stdio ${era} seed ${SEED}`);
      expect(raw.garbage, 'stdout carries only JSON-RPC').toEqual([]);
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(256 * 1024 * 1024);
      expect(sent).toBeGreaterThan(100);
      await raw.close();
    },
  );

  it('stdio child process (legacy): survives, answers well-formed JSON-RPC, exits when stdin closes', async () => {
    const gen = generators(prng(SEED + 3));
    const child = spawn(process.execPath, ['test/fixtures/stdio-fixture.mjs', served], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const received: RpcMessage[] = [];
    const garbage: string[] = [];
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        try {
          received.push(JSON.parse(line) as RpcMessage);
        } catch {
          garbage.push(line);
        }
      }
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const waitFor = async (id: string, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((message) => message.id === id);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`seed ${SEED}: no answer to ${id} from the child process`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    try {
      const write = (message: unknown) =>
        child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
      write({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
      });
      await waitFor('init');
      write({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const deadline = Date.now() + BUDGET_MS / 2;
      let sent = 0;
      while (Date.now() < deadline) {
        write(nextInput(gen));
        sent += 1;
        if (sent % 50 === 0)
          await waitFor((write({ jsonrpc: '2.0', id: `alive-${sent}`, method: 'ping' }), `alive-${sent}`));
      }
      write({ jsonrpc: '2.0', id: 'last', method: 'tools/list' });
      expect((await waitFor('last')).result).toBeDefined();
      for (const message of received) checkMessage(message, `stdio child seed ${SEED}`);
      expect(garbage).toEqual([]);
      child.stdin.end();
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill();
    }
  });

  it('http (both eras): survives, answers clear statuses and well-formed JSON-RPC, leaks nothing', async () => {
    const gen = generators(prng(SEED + 2));
    let server: HttpMcpServer | undefined = await startServer();
    try {
      populate(server, false);
      server.registerFolder(served);
      const url = server.address!.url;
      const session = await openSession(url);
      const heapBefore = process.memoryUsage().heapUsed;
      const deadline = Date.now() + BUDGET_MS;
      let sent = 0;
      const statuses = new Map<number, number>();
      while (Date.now() < deadline) {
        const modern = gen.pick([true, false]);
        const input = withEnvelope(nextInput(gen), modern);
        const method = (input as { method?: unknown })?.method;
        const headers: Record<string, string> = modern
          ? { 'Mcp-Protocol-Version': '2026-07-28', ...(typeof method === 'string' && { 'Mcp-Method': method }) }
          : sessionHeaders(session);
        const hostile: Record<string, string> = gen.pick<Record<string, string>>([
          {},
          {},
          {},
          { 'Content-Type': gen.pick(['text/plain', 'application/json; charset=latin1']) },
          { Accept: gen.pick(['*/*', 'text/html', 'application/json;q=0']) },
          { 'Mcp-Session-Id': gen.pick(['nope', 'x'.repeat(20 * 1024)]) },
        ]);
        const response = await post(url, typeof input === 'string' ? input : JSON.stringify(input), {
          ...headers,
          ...hostile,
        });
        sent += 1;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status, `seed ${SEED}: ${JSON.stringify(input).slice(0, 200)}`).toBeLessThan(500);
        const type = response.headers.get('content-type') ?? '';
        if (type.includes('json') || type.includes('event-stream')) {
          for (const message of await messages(response)) checkMessage(message as RpcMessage, `http seed ${SEED}`);
        } else {
          const text = await response.text();
          expect(text).not.toContain(SECRET);
          expect([200, 202, 204].includes(response.status) && text === '', `status ${response.status}: ${text}`).toBe(
            true,
          );
        }
      }
      expect(sent).toBeGreaterThan(50);
      // Still serving everyone: the session works and a fresh client can open one.
      const alive = await post(url, { jsonrpc: '2.0', id: 'alive', method: 'ping' }, sessionHeaders(session));
      expect(alive.status).toBe(200);
      await openSession(url);
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(256 * 1024 * 1024);
    } finally {
      await server.stop();
      server = undefined;
    }
  });
});
