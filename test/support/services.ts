// Real Redis and HAProxy for the cluster tests: Debian's binaries, started on a loopback port
// chosen at runtime and stopped by PID. A missing binary fails the test with what to install.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';

/** The path of `name` on PATH or in the usual Debian places; throws what to install when missing. */
export function requireBinary(name: 'redis-server' | 'haproxy', debianPackage: string = name): string {
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  const candidates = [which, `/usr/bin/${name}`, `/usr/sbin/${name}`].filter(Boolean);
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(
      `${name} is not installed: the cluster tests need it (Debian/Ubuntu: apt-get install ${debianPackage}).`,
    );
  }
  return found;
}

/** A free TCP port on 127.0.0.1 (bound then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on `port`, or throws after `timeoutMs`. */
async function waitForPort(port: number, what: string, child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${what} did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, signal);
  const timer = setTimeout(
    () => child.pid !== undefined && child.exitCode === null && process.kill(child.pid, 'SIGKILL'),
    3_000,
  );
  await exited;
  clearTimeout(timer);
}

/** A redis-server child on 127.0.0.1 without persistence. */
export class RedisServer {
  #child?: ChildProcess;
  stderr = '';

  private constructor(readonly port: number) {}

  /** Starts redis-server on a free port (or `port`, e.g. to restart on the same one). */
  static async start(port?: number): Promise<RedisServer> {
    const server = new RedisServer(port ?? (await freePort()));
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts (again) on the same port; data is gone (no persistence). */
  async restart(): Promise<void> {
    const binary = requireBinary('redis-server');
    const child = spawn(
      binary,
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'yes',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4_000)));
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4_000)));
    this.#child = child;
    await waitForPort(this.port, 'redis-server', child);
  }

  /** Stops it by PID (SIGTERM, SIGKILL after 3 s). */
  async stop(): Promise<void> {
    if (this.#child) await stopChild(this.#child);
  }
}

/**
 * An haproxy child running `configFile` verbatim (e.g. examples/haproxy/haproxy.cfg), its
 * addresses from the environment: `MCP_LB_BIND` is set to a free loopback port, `env` gives the rest.
 */
export class HaproxyServer {
  #child?: ChildProcess;
  stderr = '';

  private constructor(readonly port: number) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  static async start(configFile: string, env: Record<string, string>): Promise<HaproxyServer> {
    const binary = requireBinary('haproxy');
    const port = await freePort();
    const childEnv = { ...process.env, ...env, MCP_LB_BIND: `127.0.0.1:${port}` };
    const check = spawnSync(binary, ['-c', '-f', configFile], { encoding: 'utf8', env: childEnv });
    if (check.status !== 0) throw new Error(`haproxy rejected ${configFile}: ${check.stdout}${check.stderr}`);
    const server = new HaproxyServer(port);
    const child = spawn(binary, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv });
    child.stderr?.on('data', (chunk: Buffer) => (server.stderr = (server.stderr + chunk.toString()).slice(-4_000)));
    server.#child = child;
    await waitForPort(port, 'haproxy', child);
    return server;
  }

  async stop(): Promise<void> {
    if (this.#child) await stopChild(this.#child);
  }
}
