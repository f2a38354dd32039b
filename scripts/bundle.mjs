// Bundles the package's JavaScript (tsc emits only the .d.ts files): one ES module per entry point plus
// shared chunks, with every npm dependency left external. Loading ~100 small modules one by one was most
// of the toolkit's own cold-start cost (bench W0); a bundle loads in a few files. Chunks keep code that
// is imported lazily (the CLI's transports) out of the entry that does not need it.
import { chmodSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
/** Bare specifiers (npm packages, Node built-ins) stay imports; only our own files are bundled. */
const external = (id) => builtins.has(id) || !(id.startsWith('.') || id.startsWith('/') || id.startsWith('\0'));

rmSync(`${root}/dist/chunks`, { recursive: true, force: true });
await build({
  cwd: root,
  // The conversion worker is its own entry: worker threads load it by path (src/converters/pool/).
  input: {
    index: 'src/index.ts',
    'cli/main': 'src/cli/main.ts',
    'converters/conversion-worker': 'src/converters/pool/conversion-worker.ts',
  },
  platform: 'node',
  external,
  logLevel: 'warn',
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/toolkit-[hash].js',
    sourcemap: true,
  },
});
chmodSync(`${root}/dist/cli/main.js`, 0o755);
