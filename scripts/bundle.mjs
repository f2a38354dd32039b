// Bundles the package's JavaScript (tsc emits only the .d.ts files): one ES module per entry point plus
// shared chunks, with every npm dependency left external. Loading ~100 small modules one by one was most
// of the toolkit's own cold-start cost (bench W0); a bundle loads in a few files. Chunks keep code that
// is imported lazily (the CLI's transports) out of the entry that does not need it.
import { chmodSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
/** Bare specifiers (npm packages, Node built-ins) stay imports; only our own files are bundled. */
const external = (id) => builtins.has(id) || !(id.startsWith('.') || id.startsWith('/') || id.startsWith('\0'));

/**
 * One entry per file package.json points at (`exports`, `bin`): `./dist/X.js` is built from `src/X.ts`.
 * Extra entries that are loaded by path rather than imported (conversion processes) are listed here too.
 */
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
const targets = [
  ...Object.values(pkg.exports).map((target) => (typeof target === 'string' ? target : target.import)),
  ...Object.values(pkg.bin),
].filter((target) => target?.startsWith('./dist/') && target.endsWith('.js'));
const input = Object.fromEntries(
  targets.map((target) => {
    const name = target.slice('./dist/'.length, -'.js'.length);
    return [name, `src/${name}.ts`];
  }),
);

// The conversion worker is loaded by path by the conversion child processes (src/converters/pool/worker-module.ts).
input['converters/conversion-worker'] = 'src/converters/pool/conversion-worker.ts';

/**
 * `mcp-toolkit/fetch` must load on runtimes without Node's built-ins (workerd), so the code it imports
 * is kept out of the chunks that import `node:` modules: `base` (errors, lazy loading; shared with the
 * conversion processes) and `web` (everything the fetch entry reaches) import none, and
 * test/architecture/fetch-runtime-neutral.test.ts walks the built graph to hold it so.
 */
const FETCH_ENTRY = 'src/public/fetch.ts';
const fetchGraph = new Set();
const fetchImports = new Map();
let fetchId;
await build({
  cwd: root,
  input: FETCH_ENTRY,
  platform: 'neutral',
  external,
  logLevel: 'silent',
  write: false,
  plugins: [
    {
      name: 'fetch-graph',
      moduleParsed: (info) => {
        if (info.isEntry) fetchId = info.id;
        fetchGraph.add(info.id);
        fetchImports.set(info.id, info.importedIds);
      },
    },
  ],
});
const inFetchGraph = (id) => fetchGraph.has(id) && !/[\\/]src[\\/]public[\\/]/.test(id);
/** What the fetch entry loads statically (what it reaches only through `import()` may go in a lazy chunk). */
const fetchStatic = new Set([fetchId]);
for (const id of fetchStatic) for (const next of fetchImports.get(id) ?? []) fetchStatic.add(next);

/**
 * What `import 'mcp-toolkit'` reaches statically: the only code the root entry should load. Modules the root
 * reaches only through `import()` (the HTTP endpoint, loaded when an HTTP server listens) are left out, so they
 * land in chunks of their own that load on first use.
 */
const ROOT_ENTRY = 'src/index.ts';
const staticImports = new Map();
const dynamicImports = new Set();
let rootId;
await build({
  cwd: root,
  input: ROOT_ENTRY,
  platform: 'node',
  external,
  logLevel: 'silent',
  write: false,
  plugins: [
    {
      name: 'root-graph',
      moduleParsed: (info) => {
        if (info.isEntry) rootId = info.id;
        staticImports.set(info.id, info.importedIds);
        for (const id of info.dynamicallyImportedIds) if (/[\\/]src[\\/]/.test(id)) dynamicImports.add(id);
      },
    },
  ],
});
const rootGraph = new Set([rootId]);
for (const id of rootGraph) for (const next of staticImports.get(id) ?? []) rootGraph.add(next);
const inRootGraph = (id) => rootGraph.has(id);
/**
 * Each module the root graph loads with `import()` is an entry of its own (`dist/lazy/<name>.js`) holding what
 * it reaches statically beyond the root graph. An entry's namespace is the module itself, where a module inside
 * a shared chunk would need rolldown's runtime helper, whose chunk imports `node:module`: `mcp-toolkit/fetch`
 * must never load that, and it reaches the upstream's connection code this way.
 */
const lazyGraph = new Set();
for (const id of dynamicImports) {
  if (rootGraph.has(id)) continue;
  input[`lazy/${id.replace(/.*[\\/]/, '').replace(/\.ts$/, '')}`] = id;
  const graph = new Set([id]);
  for (const each of graph) for (const next of staticImports.get(each) ?? []) if (!rootGraph.has(next)) graph.add(next);
  for (const each of graph) lazyGraph.add(each);
}
const isShared = (id) =>
  /[\\/]src[\\/](?!cli[\\/]|testing[\\/]|public[\\/]|openapi[\\/]|middleware[\\/]|converters[\\/]pool[\\/]conversion-worker)/.test(
    id,
  );

/**
 * Six shared chunks instead of one per combination of importing entries: each file costs the ESM
 * loader about a millisecond at start-up (bench W0, docs/performance.md).
 * `base` (errors, lazy loading, bytes) and `convert` (converters) are what the conversion processes share
 * with the server, so a conversion process does not load the whole toolkit. Converter code the root loads
 * with `import()` (the conversion processes, the converters' parsing helpers) stays in its `dist/lazy/`
 * entry, which both load on first use: `convert` is loaded at start. The root entry loads `web`
 * (what both it and the fetch entry reach: no `node:` imports, see above) and `toolkit` (the rest of what
 * it reaches statically), and nothing else: what only other entries reach is in `fetch` (the fetch
 * handler, with negotiator) or `extras` (admin, cluster, the CLI's transports...), so the code a
 * one-tool stdio server compiles at start is what it can run.
 * The built-in middleware (`src/middleware/`, only `mcp-toolkit/middleware` imports it) stays in that
 * entry, so the root never loads `rate-limiter-flexible`.
 * The subpath entries (`src/public/`) stay out of them; the code they re-export is in the chunks (the
 * CLI loads admin and cluster code lazily, and a chunk of their own would put rolldown's runtime
 * helpers in one more file for every entry). Nothing the root loads imports an optional peer
 * (`redis` is loaded by `importOptional()` on first use).
 * The worker's own module stays in its entry: its top level redirects stdout, which must never run
 * in a server process.
 */
const BASE = /[\\/]src[\\/](errors|lazy-module|bytes)\.ts$/;
const CHUNK_GROUPS = [
  { name: 'base', test: BASE, priority: 5 },
  {
    name: 'convert',
    test: (id) => /[\\/]src[\\/]converters[\\/](?!pool[\\/]conversion-worker)/.test(id) && !lazyGraph.has(id),
    priority: 4,
  },
  { name: 'web', test: (id) => inFetchGraph(id) && inRootGraph(id), priority: 3 },
  { name: 'fetch', test: (id) => inFetchGraph(id) && fetchStatic.has(id), priority: 3 },
  { name: 'toolkit', test: (id) => isShared(id) && inRootGraph(id), priority: 1 },
  { name: 'extras', test: (id) => isShared(id) && !lazyGraph.has(id), priority: 1 },
];

rmSync(`${root}/dist/chunks`, { recursive: true, force: true });
await build({
  cwd: root,
  input,
  platform: 'node',
  external,
  // Node's built-ins have no side effects to keep: an unused one is dropped rather than left as a bare
  // `import 'node:module'` (rolldown's runtime chunk kept one, which workerd cannot load through the lazy
  // chunks `mcp-toolkit/fetch` reaches, such as the upstream's connection code).
  treeshake: { moduleSideEffects: (id, isExternal) => !(isExternal && builtins.has(id)) },
  logLevel: 'warn',
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    // V8 keeps each module's source for lazy compilation, and Node decodes a file with any character beyond
    // Latin-1 into a two-byte string. Without doc comments (the .d.ts files and the source maps keep them) and
    // with non-ASCII escaped, the root's sources take ~1 MB less heap at start, where V8's first full collection
    // is near (bench W0, docs/performance.md).
    comments: { legal: true, annotation: true, jsdoc: false },
    charset: 'ascii',
    codeSplitting: { groups: CHUNK_GROUPS },
  },
});
for (const bin of Object.values(pkg.bin)) chmodSync(`${root}/${bin}`, 0o755);
