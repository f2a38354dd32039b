import { MissingDependencyError } from './errors.js';

// No static `node:` import: this module is on the import graph of `mcp-toolkit/fetch`, which must load on
// runtimes without Node's built-ins (workerd). `process.getBuiltinModule` (Node >= 20.16, Bun, Deno) reaches
// them when a lazy dependency is first used.
let require: NodeJS.Require | undefined;
function nodeRequire(): NodeJS.Require {
  const getBuiltin = (globalThis as { process?: Partial<NodeJS.Process> }).process?.getBuiltinModule;
  if (!getBuiltin) throw new Error('This feature needs Node.js built-in modules, which this runtime does not provide.');
  return (require ??= (getBuiltin('node:module') as typeof import('node:module')).createRequire(import.meta.url));
}

/**
 * A CommonJS dependency loaded on first use instead of at import, so that a server pays only for
 * what it uses (a stdio server never loads the HTTP stack; a server without documents never loads
 * the MIME database). `require` is synchronous, so call sites stay synchronous. Only for CommonJS
 * packages (and ESM ones without top-level await); ESM-only packages use `import()` at the call site.
 * @throws Error on first use on a runtime without Node's built-in modules (workerd without `nodejs_compat`).
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= nodeRequire()(id) as T);
}

/**
 * Node built-ins that cost milliseconds to load and that a plain stdio server never needs at start:
 * `node:crypto` (~4.5 ms; ids, keys and hashes are made on first use) and `node:http` (~3 ms; loaded
 * by the HTTP transport when it listens). Measured after the SDK's own imports (bench W0).
 */
export const nodeCrypto = lazyRequire<typeof import('node:crypto')>('node:crypto');
/** See {@link nodeCrypto}. */
export const nodeHttp = lazyRequire<typeof import('node:http')>('node:http');
/** `node:https`, loaded only by an HTTPS endpoint. */
export const nodeHttps = lazyRequire<typeof import('node:https')>('node:https');
/** `node:os` (~0.7 ms): host name, CPU count and home folder, read on first use. */
export const nodeOs = lazyRequire<typeof import('node:os')>('node:os');
/**
 * `node:fs` and `node:util` read as objects, never imported: an ES import of a built-in builds its whole namespace,
 * which runs every getter of the module. `fs.promises` then loads the promises API, directory streams, watchers and
 * readline, and `node:util` on Node 24 streams and worker threads, none of which a stdio server needs at start
 * (bench W0; docs/performance.md, "Cold start, twelfth round").
 */
export const nodeFs = lazyRequire<typeof import('node:fs')>('node:fs');
/** See {@link nodeFs}. */
export const nodeUtil = lazyRequire<typeof import('node:util')>('node:util');

/**
 * Imports an optional peer dependency (ESM `import()`), for features that only a subpath needs.
 * @param packageName - the npm package, e.g. `redis`.
 * @param feature - what needs it, for the message, e.g. `createCluster()`.
 * @throws MissingDependencyError (`MISSING_DEPENDENCY`, message ending `npm install <packageName>`)
 *   when the package itself cannot be found; any other load error (a broken install) is rethrown.
 */
export async function importOptional<T>(packageName: string, feature: string): Promise<T> {
  try {
    return (await import(packageName)) as T;
  } catch (error) {
    throw missingOr(error, packageName, feature);
  }
}

/** A `MissingDependencyError` when `error` says `packageName` itself was not found, else `error`. */
function missingOr(error: unknown, packageName: string, feature: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const missing =
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    String((error as Error).message).includes(`'${packageName}'`);
  return missing ? new MissingDependencyError(packageName, feature, { cause: error }) : error;
}

/**
 * Like {@link importOptional} but synchronous (`require`), for optional peers with a CommonJS build
 * (`@opentelemetry/api`) that a synchronous factory needs.
 * @throws MissingDependencyError when the package cannot be found; any other load error is rethrown.
 */
export function requireOptional<T>(packageName: string, feature: string): T {
  try {
    return nodeRequire()(packageName) as T;
  } catch (error) {
    throw missingOr(error, packageName, feature);
  }
}

/** Servers in the middle of `start()` (see {@link holdBackgroundWork}), and what waits for them to finish. */
let starting = 0;
let whenStarted: Array<() => void> = [];

/**
 * Marks a server's `start()` as under way (its `toolState` store loading, its transport opening): background work
 * waiting in {@link afterPendingIo} waits for it too. Returns the release, to call once `start()` has opened its
 * transport or failed (idempotent).
 */
export function holdBackgroundWork(): () => void {
  starting += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    starting -= 1;
    if (starting > 0) return;
    const waiting = whenStarted;
    whenStarted = [];
    for (const resume of waiting) resume();
  };
}

/**
 * The next check phase (`setImmediate`; a zero timer where there is none). Resolves at once where timers are
 * refused (a Worker's top level in workerd): there is no stdin there to wait for.
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    try {
      (globalThis.setImmediate ?? ((run: () => void) => setTimeout(run, 0)))(() => resolve());
    } catch {
      resolve();
    }
  });
}

/**
 * Resolves once no server is in the middle of `start()` and the event loop has then gone through a whole poll for
 * I/O: after the check phase (`setImmediate`) of the next turn, not of this one, since I/O started now (stdin's
 * first read, when a server starts) is polled only from the next turn on. Background work started with a server
 * (the document watcher, the search index, an upstream's connection) awaits it before it loads, so that input
 * already waiting, a client's first message on stdin, is answered first; a `start()` called in the same turn as
 * the registration counts, however long its `toolState` store takes to load. It must be explicit: from Node 22
 * on, an `import()` of a file settles before any timer or immediate (the loader reads synchronously), so that
 * work would otherwise run before stdin is ever read (bench W0: the CLI at 1.14x the raw SDK on Node 24, 1.06x
 * waiting; docs/performance.md, "Cold start, tenth round"). A `start()` that never ends holds the work as long.
 */
export async function afterPendingIo(): Promise<void> {
  for (;;) {
    await nextTurn();
    await nextTurn();
    if (starting === 0) return;
    await new Promise<void>((resume) => whenStarted.push(resume));
  }
}

/**
 * A load (an `import()` of our own code or a dependency, and what is made from it) run once and shared:
 * the returned function gives the same promise while it is pending or fulfilled. A rejected load is
 * forgotten, so the next call tries again (the file put back after a broken install or deploy) instead of
 * failing for the rest of the process.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/**
 * {@link loadOnce} for background work started with a server (the document watcher, the search index, an
 * upstream's connection): each load, the retry of a failed one too, begins only after {@link afterPendingIo}, so
 * that a client's first message already waiting is answered first.
 */
export function backgroundLoadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  return loadOnce(() => afterPendingIo().then(load));
}
