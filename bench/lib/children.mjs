/* global URL, clearTimeout, setTimeout */
// Server children: each system under test runs in its own process so that its CPU time
// can be read from /proc/<pid>/ (task/*/schedstat, else stat). Every child has a hard timeout and is killed when
// the bench exits.
import { execFileSync, fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('../servers/child.mjs', import.meta.url));
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const live = new Set();

process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** CPU seconds the process has used so far in user space (`user`) and in the kernel (`system`). */
export function cpuTimes(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / TICKS, system: Number(fields[12]) / TICKS }; // utime, stime (fields 14, 15)
}

/** CPU seconds (user + system) the process has used so far. */
export function cpuSeconds(pid) {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/**
 * CPU seconds the process's live threads have run, to the nanosecond (the first field of each
 * /proc/<pid>/task/<tid>/schedstat). /proc/<pid>/stat counts in 10 ms ticks: W4's 23 lists of ~2.5 ms
 * read 6 or 7 ticks, a 17% step. Threads that exited are not counted (a server's threads live on);
 * without schedstat, {@link cpuSeconds}.
 */
export function preciseCpuSeconds(pid) {
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
    readFileSync(`/proc/${pid}/schedstat`);
  } catch {
    return cpuSeconds(pid);
  }
  let ns = 0;
  for (const tid of tids) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended since readdir
    }
  }
  return ns / 1e9;
}

/**
 * CPU seconds the process's main thread (where modules compile and run) has run so far, to the nanosecond
 * (`/proc/<pid>/task/<pid>/schedstat`); undefined where that file is missing (not Linux).
 */
export function mainThreadCpuSeconds(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
  } catch {
    return undefined;
  }
}

/**
 * Starts `system` (bench/servers/<system>.mjs) over `transport` ('http' | 'stdio').
 * Resolves once it is ready, with its port (HTTP), its stdio pipes and its control channel.
 */
export function startChild(system, transport, config = {}, { hardTimeoutMs = 120_000 } = {}) {
  const child = fork(CHILD, [system, transport, JSON.stringify({ ...config, hardTimeoutMs })], {
    // BENCH_SERVER_CPU_PROF=<dir>: each server child writes a V8 CPU profile there when it stops.
    execArgv: [
      '--expose-gc',
      ...(process.env.BENCH_SERVER_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_CPU_PROF}`]
        : []),
    ],
    stdio: transport === 'stdio' ? ['pipe', 'pipe', 'pipe', 'ipc'] : ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  live.add(child);
  const killer = setTimeout(() => child.kill('SIGKILL'), hardTimeoutMs + 5_000);
  killer.unref();
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    if (stderr.length < 20_000) stderr += chunk;
  });
  const pending = new Map();
  let nextId = 0;
  let exited = false;
  const exit = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      live.delete(child);
      clearTimeout(killer);
      for (const { reject } of pending.values()) reject(new Error(`${system} exited (${code ?? signal})`));
      resolve();
    }),
  );
  const handle = {
    system,
    pid: child.pid,
    port: 0,
    stdin: child.stdin,
    stdout: child.stdout,
    exit,
    stderr: () => stderr,
    cpu: () => preciseCpuSeconds(child.pid),
    /** `{ user, system }` CPU seconds so far, in 10 ms ticks (see {@link cpuTimes}). */
    cpuTimes: () => cpuTimes(child.pid),
    /** Sends a control command (heap, held, toggle, stop) and resolves with its value. */
    call(cmd, timeoutMs = 30_000) {
      const id = (nextId += 1);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${system}: ${cmd} timed out`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (value) => (clearTimeout(timer), resolve(value)),
          reject: (error) => (clearTimeout(timer), reject(error)),
        });
        child.send({ id, cmd });
      });
    },
    /** Ends the child (SIGKILL if it has not exited within a second). */
    async kill() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 1_000);
      await exit;
      clearTimeout(timer);
    },
  };
  child.on('message', (message) => {
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`${system}: ${message.error}`));
    else waiter.resolve(message.value);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${system} did not start: ${stderr}`)), 30_000);
    child.on('message', (message) => {
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      handle.port = message.port;
      resolve(handle);
    });
    exit.then(() => reject(new Error(`${system} exited before it was ready: ${stderr}`)));
  });
}
