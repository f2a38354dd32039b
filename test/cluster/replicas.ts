// Shared setup of the cluster end-to-end tests: replicas as child processes
// (test/fixtures/cluster-replica.mjs, built package) joined to one Redis, driven over IPC, and
// SDK clients spread over them. Every child is stopped by PID.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectClient, type ClientKind, type TestClient } from '../support/clients.js';
import { messages, post } from '../e2e/http-helpers.js';
import { HaproxyServer, RedisServer } from '../support/services.js';

const noop = () => {};
/** A logger that drops everything (the cluster's warnings are expected in these tests). */
export const silentLogger = { debug: noop, info: noop, warn: noop, error: noop, child: () => silentLogger } as never;

const FIXTURE = fileURLToPath(new URL('../fixtures/cluster-replica.mjs', import.meta.url));
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) if (child.pid) process.kill(child.pid, 'SIGKILL');
});

/** One replica process: its MCP URL and its control channel. */
export class Replica {
  #next = 0;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly exited: Promise<number | null>;
  stderr = '';

  private constructor(
    readonly id: string,
    readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.on('message', (message: { id?: number; value?: unknown; error?: string }) => {
      const waiter = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (!waiter) return;
      this.#pending.delete(message.id!);
      if (message.error) waiter.reject(new Error(`${id}: ${message.error}`));
      else waiter.resolve(message.value);
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        live.delete(child);
        for (const waiter of this.#pending.values()) waiter.reject(new Error(`${id} exited (${code})`));
        resolve(code);
      }),
    );
  }

  /** Starts a replica process; resolves once it listens. */
  static async start(
    redisUrl: string,
    prefix: string,
    id: string,
    onUnavailable = 'fail',
    env: Record<string, string> = {},
  ): Promise<Replica> {
    const child = fork(FIXTURE, [redisUrl, prefix, id, onUnavailable], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, ...env },
    });
    live.add(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`replica ${id} did not start: ${stderr}`)), 20_000);
      child.on('message', (message: { type?: string; url?: string }) => {
        if (message.type !== 'ready') return;
        clearTimeout(timer);
        resolve(message.url!);
      });
      child.once(
        'exit',
        (code) => (clearTimeout(timer), reject(new Error(`replica ${id} exited (${code}): ${stderr}`))),
      );
    });
    const replica = new Replica(id, child, url);
    child.stderr?.on('data', (chunk: Buffer) => (replica.stderr = (replica.stderr + chunk.toString()).slice(-4_000)));
    return replica;
  }

  /** Runs a fixture command (see cluster-replica.mjs) and resolves its value. */
  call<T = unknown>(cmd: string, arg?: unknown, timeoutMs = 10_000): Promise<T> {
    const id = ++this.#next;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => (this.#pending.delete(id), reject(new Error(`${this.id}: ${cmd} timed out`))),
        timeoutMs,
      );
      this.#pending.set(id, {
        resolve: (value) => (clearTimeout(timer), resolve(value as T)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.child.send({ id, cmd, arg });
    });
  }

  /** Stops the process by PID: SIGTERM (clean stop) or SIGKILL (a crash). */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null || !this.child.pid) return;
    process.kill(this.child.pid, signal);
    const timer = setTimeout(() => this.child.pid && process.kill(this.child.pid, 'SIGKILL'), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** `count` clients spread round-robin over `replicas` (v1 and v2 alternating for legacy). */
export async function connectSpread(
  replicas: readonly Replica[],
  count: number,
  era: 'legacy' | 'modern',
): Promise<Array<{ client: TestClient; replica: Replica }>> {
  const out: Array<{ client: TestClient; replica: Replica }> = [];
  // In batches: 100 simultaneous handshakes on two cores only slow each other down.
  for (let start = 0; start < count; start += 20) {
    const batch = Array.from({ length: Math.min(20, count - start) }, async (_, j) => {
      const i = start + j;
      const replica = replicas[i % replicas.length]!;
      const url = new URL(replica.url);
      const kind: ClientKind = era === 'modern' ? 'v2-modern' : i % 2 === 0 ? 'v1' : 'v2-legacy';
      const client = await connectClient(kind, kind === 'v1' ? new HttpV1(url) : new HttpV2(url));
      return { client, replica };
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/** The 2026-07-28 request `method` on `url` (no session): the JSON-RPC response. */
export async function modernRequest(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: object = { elicitation: {} },
  headers: Record<string, string> = {},
) {
  const name = (params.name ?? params.taskId) as string | undefined;
  const response = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 7,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    },
    { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...(name && { 'Mcp-Name': name }), ...headers },
  );
  const [message] = await messages(response);
  return message as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

/** The tool names `tools/list` shows on `url` (2026-07-28, no session). */
export async function toolNamesAt(url: string): Promise<string[]> {
  const message = await modernRequest(url, 'tools/list');
  return ((message.result?.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name);
}

/** Polls `predicate` every 5 ms; resolves the elapsed ms, throws after `timeoutMs`. */
export async function within(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs: number) {
  const started = performance.now();
  while (!(await predicate())) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - started;
}

/** The load-balancer config the docs ship and the tests run verbatim. */
export const HAPROXY_CONFIG = fileURLToPath(new URL('../../examples/haproxy/haproxy.cfg', import.meta.url));

/** A redis-server, three replica processes on it and HAProxy (the shipped config) in front of them. */
export async function startBalancedCluster(
  prefix: string,
): Promise<{ redis: RedisServer; replicas: Replica[]; haproxy: HaproxyServer }> {
  const redis = await RedisServer.start();
  const replicas = await Promise.all(['r1', 'r2', 'r3'].map((id) => Replica.start(redis.url, prefix, id)));
  const hostPort = (replica: Replica) => new URL(replica.url).host;
  const haproxy = await HaproxyServer.start(HAPROXY_CONFIG, {
    MCP_REPLICA_1: hostPort(replicas[0]!),
    MCP_REPLICA_2: hostPort(replicas[1]!),
    MCP_REPLICA_3: hostPort(replicas[2]!),
  });
  return { redis, replicas, haproxy };
}
