import { spawn } from 'node:child_process';

/** What a fixture process did: its exit code and signal, stdout, stderr and how long it ran (ms). */
export interface FixtureRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
  readonly ms: number;
}

/**
 * Runs `node <fixture> ...args` with no stdin and waits for its exit (it is killed after `killAfterMs`:
 * a fixture that should exit on its own and does not shows as `signal: 'SIGKILL'`).
 */
export async function runFixture(fixture: string, args: readonly string[] = [], killAfterMs = 20_000) {
  const started = performance.now();
  const child = spawn(process.execPath, [fixture, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  clearTimeout(killer);
  return { code, signal, out, err, ms: performance.now() - started } satisfies FixtureRun;
}
