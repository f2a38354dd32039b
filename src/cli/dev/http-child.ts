import { spawn, type ChildProcess } from 'node:child_process';
import {
  connectTarget,
  EXIT_GRACE_MS,
  type ConnectTargetOptions,
  type TargetConnection,
} from '../client/connect-target.js';

/** How long `dev --url` waits for a freshly started HTTP server to answer (ms). */
const READY_TIMEOUT_MS = 15_000;

/** Writes each complete line of a stream to `write`, prefixed. */
export function prefixLines(prefix: string, write: (text: string) => void): (text: string) => void {
  let partial = '';
  return (text) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) write(`${prefix}${line}\n`);
  };
}

/**
 * Runs a server file that serves HTTP (`dev --url`): spawns it (stdin ignored, its output copied
 * to stderr), then connects to `url` as soon as it answers. Closing ends the client, then the
 * process: SIGTERM, and SIGKILL after {@link EXIT_GRACE_MS} with a notice.
 * @throws Error when the process exits, or `url` does not answer within 15 s.
 */
export async function startHttpServerFile(
  run: { command: string; args: string[] },
  url: URL,
  options: ConnectTargetOptions,
): Promise<TargetConnection> {
  const child = spawn(run.command, run.args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const forward = options.onServerStderr ?? ((text: string) => process.stderr.write(text));
  child.stdout?.on('data', (chunk: Buffer) => forward(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => forward(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const outcome = await Promise.race([
      connectTarget({ kind: 'http', url }, options).catch((error: unknown) => error as Error),
      exited.then((code) => new Error(`the server exited (code ${code}) before ${url.href} answered`)),
    ]);
    if (!(outcome instanceof Error)) return withProcess(outcome, child, exited, options.notice);
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw outcome;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function withProcess(
  connection: TargetConnection,
  child: ChildProcess,
  exited: Promise<unknown>,
  notice: (line: string) => void,
): TargetConnection {
  let closing: Promise<void> | undefined;
  const close = async () => {
    await connection.close();
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      notice(`the server (pid ${child.pid}) did not exit ${EXIT_GRACE_MS / 1000} s after SIGTERM: sending SIGKILL`);
      child.kill('SIGKILL');
    }, EXIT_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  return { client: connection.client, pid: child.pid, close: () => (closing ??= close()) };
}
