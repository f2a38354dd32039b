import { statSync } from 'node:fs';
import path from 'node:path';
import { watch } from 'chokidar';

/** Changes closer together than this restart the server once (ms): editors write in bursts. */
const DEBOUNCE_MS = 150;
const SOURCE = /\.(c|m)?(t|j)sx?$|\.json$/i;
const SKIP = /(^|[\\/])(node_modules|\.git|dist|coverage)([\\/]|$)/;

/** A running watcher. */
export interface SourceWatcher {
  /** The folders (or files) watched. */
  readonly roots: string[];
  close(): Promise<void>;
}

/**
 * Watches the folder of the server file (its local imports live there, by convention) plus any
 * given file or folder, for added, changed and removed `.ts`/`.js`/`.json` files outside
 * `node_modules`, `.git`, `dist` and `coverage`, with chokidar. `onChange` gets the path of the last
 * change of a burst. Resolves once the initial scan is done (changes before it are not reported).
 */
export async function watchSources(paths: string[], onChange: (file: string) => void): Promise<SourceWatcher> {
  const [main, ...extra] = paths.map((entry) => path.resolve(entry));
  const roots = [path.dirname(main!), ...extra];
  const explicit = new Set(extra.filter((entry) => isFile(entry)));
  const watcher = watch(roots, {
    ignoreInitial: true,
    ignored: (file, stats) =>
      SKIP.test(path.relative(roots[0]!, file)) ||
      (stats?.isFile() === true && !SOURCE.test(file) && !explicit.has(file)),
  });
  let timer: NodeJS.Timeout | undefined;
  watcher.on('all', (event, file) => {
    if (event === 'addDir' || event === 'unlinkDir') return;
    clearTimeout(timer);
    timer = setTimeout(() => onChange(file), DEBOUNCE_MS);
  });
  await new Promise<void>((resolve, reject) => watcher.once('ready', resolve).once('error', reject));
  return {
    roots,
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}

function isFile(entry: string): boolean {
  try {
    return statSync(entry).isFile();
  } catch {
    return false;
  }
}
