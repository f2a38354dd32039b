/**
 * Which files a conversion process loads. It runs plain Node: on Node 20 it cannot load TypeScript. The worker entry is its own bundle, `dist/converters/conversion-worker.js` (with the
 * built-in converters inside), found from the package root both when the library runs from `dist/` and
 * when its sources run through vitest (`npm test` builds first). A custom converter's `.ts` module is
 * replaced by a built `dist/**.js` twin when one exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUILTIN_CONVERTERS_MODULE } from '../converter.js';

/** Where the build puts the worker entry, relative to the package root (see scripts/bundle.mjs). */
const WORKER_ENTRY = 'dist/converters/conversion-worker.js';

/**
 * The built worker entry, found from `fromUrl` (this module's `import.meta.url`: a source file under
 * `src/`, or a bundle file under `dist/`) by walking up to the package root.
 * @throws Error when there is no build (the message says to run `npm run build`)
 */
export function workerEntryUrl(fromUrl: string): string {
  let dir = path.dirname(fileURLToPath(fromUrl));
  for (let depth = 0; depth < 8; depth += 1) {
    const candidate = path.join(dir, WORKER_ENTRY);
    if (fs.existsSync(candidate)) return pathToFileURL(candidate).href;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`the conversion worker ${WORKER_ENTRY} was not found above ${fromUrl}: run "npm run build" first`);
}

/**
 * The file URL a worker can import for `module` (a file URL or an absolute path): unchanged unless it is
 * a `.ts` file, then its built twin under `dist/`.
 * @throws Error when a `.ts` module has no built twin (the message says to run `npm run build`)
 */
export function runnableModuleUrl(module: string | URL): string {
  if (module === BUILTIN_CONVERTERS_MODULE) return module;
  const url =
    typeof module !== 'string' ? module : module.startsWith('file:') ? new URL(module) : pathToFileURL(module);
  if (!url.pathname.endsWith('.ts')) return url.href;
  const segments = url.pathname.split('/');
  const src = segments.lastIndexOf('src');
  if (src >= 0) {
    segments[src] = 'dist';
    const built = new URL(url.href);
    built.pathname = segments.join('/').replace(/\.ts$/, '.js');
    if (fs.existsSync(built)) return built.href;
  }
  throw new Error(
    `a conversion process cannot load the TypeScript module ${url.href} and found no built twin under dist/: ` +
      'run "npm run build" first, or point the converter\'s worker spec at a JavaScript module',
  );
}
