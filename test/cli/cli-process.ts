import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A running `mcp-toolkit` process whose output the test reads as it comes. */
export interface CliProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
  /** Waits until stdout (default) matches `pattern` after `from` characters; rejects after `ms` with the output so far. */
  waitFor(pattern: RegExp, ms?: number, from?: number, stream?: 'stdout' | 'stderr'): Promise<void>;
}

/** Starts the real CLI (`node dist/cli/main.js ...args`) in `cwd` (default: the repository), with more `env`. */
export function startCli(args: string[], cwd = ROOT, env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitFor(pattern, ms = 20_000, from = 0, stream = 'stdout') {
      const deadline = Date.now() + ms;
      while (!pattern.test((stream === 'stdout' ? out : err).slice(from))) {
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`no ${pattern} on ${stream} within ${ms} ms.\nstdout:\n${out}\nstderr:\n${err}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** Runs the CLI to its end (killed after `ms`): exit code and output. */
export async function runCli(
  args: string[],
  ms = 30_000,
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const cli = startCli(args);
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), ms);
  const code = await cli.exited;
  clearTimeout(timer);
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}
