/* global setTimeout */
// A redis-server child for the cluster benchmark (W7): Debian's binary on a free loopback port,
// no persistence, stopped by PID.
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import process from 'node:process';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const accepts = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** Starts redis-server; resolves `{ url, stop }`. Throws what to install when it is missing. */
export async function startRedis() {
  const binary = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (!binary) throw new Error('W7 needs redis-server (Debian/Ubuntu: apt-get install redis-server).');
  const port = await freePort();
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  process.on('exit', () => child.exitCode === null && child.kill('SIGKILL'));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('redis-server did not start');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        process.kill(child.pid, 'SIGTERM');
      }),
  };
}
