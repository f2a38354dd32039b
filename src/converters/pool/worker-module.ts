/**
 * Which file a worker thread loads for a module. Worker threads run plain Node: on Node 20 they cannot
 * load TypeScript. When the library runs from `dist/` every module is already JavaScript; when its
 * sources run through vitest (or another TypeScript loader), a `src/**.ts` module is replaced by its
 * built twin `dist/**.js` (the layout of `tsconfig.build.json`), which `npm test` builds first.
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * The file URL a worker can import for `module` (a file URL or an absolute path): unchanged unless it is
 * a `.ts` file, then its built twin under `dist/`.
 * @throws Error when a `.ts` module has no built twin (the message says to run `npm run build`)
 */
export function runnableModuleUrl(module: string | URL): string {
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
    `a worker thread cannot load the TypeScript module ${url.href} and found no built twin under dist/: ` +
      'run "npm run build" first, or point the converter\'s worker spec at a JavaScript module',
  );
}
