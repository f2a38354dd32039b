// One server under test, in its own process (forked by bench/lib/children.mjs with
// --expose-gc and an IPC channel):  child.mjs <system> <http|stdio> <config-json>
//
// IPC control channel (requests { id, cmd } -> replies { id, value }):
//   heap   -> { heapUsed, rss } after forced GCs     held   -> live sessions
//   toggle -> disables / re-enables `echo`           stop   -> stops the server
//   toggledAt -> when `echo` last flipped here (epoch ms; ours only)
//   lastToggleMs -> how long the last `toggle` ran synchronously (ms): the server's own call,
//                   e.g. `disableTool`, before anything it scheduled runs
// The process exits when the parent goes away and, in any case, after hardTimeoutMs.
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setImmediate, setTimeout } from 'node:timers/promises';

const [system, transport, configJson] = process.argv.slice(2);
const config = JSON.parse(configJson);
const guard = globalThis.setTimeout(() => process.exit(124), config.hardTimeoutMs ?? 120_000);
guard.unref();
process.on('disconnect', () => process.exit(0));
// A profiled child (BENCH_SERVER_CPU_PROF) exits normally on SIGTERM, so that V8 writes its profile.
if (process.execArgv.includes('--cpu-prof')) process.on('SIGTERM', () => process.exit(0));

async function heapAfterGc() {
  for (let i = 0; i < 4; i += 1) {
    globalThis.gc();
    await setImmediate();
  }
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

const systemModule = await import(`./${system}.mjs`);
const control = transport === 'stdio' ? await systemModule.startStdio(config) : await systemModule.startHttp(config);
if (transport === 'stdio') process.channel?.unref(); // stdin closing must end the process

let lastToggleMs = null;
const commands = {
  heap: heapAfterGc,
  held: () => control.held(),
  toggle: () => {
    const t0 = performance.now();
    const value = control.toggle();
    lastToggleMs = performance.now() - t0;
    return value;
  },
  lastToggleMs: () => lastToggleMs,
  toggledAt: () => control.toggledAt?.() ?? null,
  stop: async () => {
    await Promise.race([control.stop(), setTimeout(5_000)]);
    globalThis.setTimeout(() => process.exit(0), 10).unref();
    return true;
  },
};

process.on('message', async ({ id, cmd }) => {
  try {
    process.send({ id, value: await commands[cmd]() });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.send({ type: 'ready', port: control?.port });
