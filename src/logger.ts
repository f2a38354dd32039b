import type { Bindings, Level, Logger as PinoLogger } from 'pino';
import { lazyRequire } from './lazy-module.js';

const loadPino = lazyRequire<typeof import('pino')>('pino');

/**
 * The logger the toolkit writes its own diagnostics to. Any pino-compatible logger
 * fits (`logger.warn({ err }, 'message')`). Never write to stdout: in stdio mode
 * stdout carries JSON-RPC only.
 */
export type Logger = Pick<PinoLogger, 'debug' | 'info' | 'warn' | 'error' | 'child'>;

/** pino's numeric levels, so a message below the level is dropped without loading pino. */
const LEVELS: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

type MaybeProcess = { process?: { env?: Record<string, string | undefined>; getBuiltinModule?: unknown } };

/**
 * Creates the default logger: pino writing JSON lines to stderr (fd 2) at `level`
 * (default from `MCP_TOOLKIT_LOG_LEVEL`, else `info`). pino itself (about ten modules) loads with the
 * first message at or above `level`, so a server that has nothing to say starts without it (bench W0).
 * On a runtime without Node's built-in modules (workerd without `nodejs_compat`) the same JSON lines go
 * to `console.error` instead, since pino cannot load there.
 * @throws Error when `level` is not a pino level name.
 */
export function createDefaultLogger(
  level = (globalThis as MaybeProcess).process?.env?.MCP_TOOLKIT_LOG_LEVEL ?? 'info',
): Logger {
  const threshold = LEVELS[level];
  if (threshold === undefined) throw new Error(`unknown log level "${level}" (use ${Object.keys(LEVELS).join(', ')})`);
  if (!(globalThis as MaybeProcess).process?.getBuiltinModule) return consoleLogger(threshold, {});
  let root: PinoLogger | undefined;
  const load = (): PinoLogger => {
    const { pino } = loadPino();
    return (root ??= pino({ name: 'mcp-toolkit', level }, pino.destination({ fd: 2, sync: true })));
  };
  return lazyLogger(threshold, load);
}

/** A {@link Logger} that asks `load` for the real pino logger only when a message passes `threshold`. */
function lazyLogger(threshold: number, load: () => PinoLogger): Logger {
  const method =
    (name: Level) =>
    (...args: unknown[]): void => {
      if ((LEVELS[name] ?? 0) < threshold) return;
      const real = load();
      (real[name] as (...rest: unknown[]) => void).apply(real, args);
    };
  const child = (bindings: Bindings): PinoLogger => {
    let real: PinoLogger | undefined;
    return lazyLogger(threshold, () => (real ??= load().child(bindings))) as unknown as PinoLogger;
  };
  const logger = { debug: method('debug'), info: method('info'), warn: method('warn'), error: method('error'), child };
  return logger as unknown as Logger;
}

/** A {@link Logger} writing pino-shaped JSON lines (`level`, `time`, `msg`, fields) to `console.error`. */
function consoleLogger(threshold: number, bindings: Bindings): Logger {
  const method =
    (name: Level) =>
    (first?: unknown, ...rest: unknown[]): void => {
      const level = LEVELS[name] ?? 0;
      if (level < threshold) return;
      const fields = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
      const msg = typeof first === 'string' ? first : rest.find((item) => typeof item === 'string');
      const err = fields.err instanceof Error ? { message: fields.err.message, stack: fields.err.stack } : fields.err;
      const line = {
        level,
        time: Date.now(),
        name: 'mcp-toolkit',
        ...bindings,
        ...fields,
        ...(err !== undefined && { err }),
        msg,
      };
      console.error(JSON.stringify(line));
    };
  const logger = {
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
    child: (more: Bindings) => consoleLogger(threshold, { ...bindings, ...more }),
  };
  return logger as unknown as Logger;
}
