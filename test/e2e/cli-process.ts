/**
 * The real CLI (`dist/cli/main.js serve`) as a child process on 127.0.0.1: started on a free port, its
 * stderr (banner and log) kept, its resident memory read from /proc, stopped by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exitWithin } from './http-helpers.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** A running CLI server. */
export interface CliServer {
  child: ChildProcess;
  /** The MCP endpoint URL from the banner. */
  url: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resident set size of the CLI process itself (not its children), MiB, from /proc/<pid>/status. */
  rssMiB(): number;
  /** SIGTERM, then the exit code (or 'hung' after 10 s, when it is killed). */
  stop(): Promise<number | null | 'hung'>;
}

/** Starts `serve --port 0 <args...>` and resolves once the banner names the endpoint. */
export async function startCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliServer> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stderr: ${stderr}`)), 15_000);
    const look = () => {
      const match = /MCP endpoint: (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`the CLI exited (${code}) before serving: ${stderr}`)));
  });
  return {
    child,
    url,
    stderr: () => stderr,
    rssMiB: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
    },
    stop: () => {
      if (child.exitCode !== null) return Promise.resolve(child.exitCode);
      child.kill('SIGTERM');
      return exitWithin(child, 10_000);
    },
  };
}

/** Runs `serve <args...>` expecting it to fail at once; resolves its exit code and stderr. */
export async function failingCli(args: readonly string[]): Promise<{ code: number | null | 'hung'; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await exitWithin(child, 10_000);
  return { code, stderr };
}
