// Which folder of src/ may import which: read from the one table in docs/architecture.md ("Folder
// directions"), so that the docs and `npm run lint` cannot disagree. eslint.config.js turns it into
// `import-x/no-restricted-paths` zones; test/architecture/folder-directions.test.ts checks it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DOC = fileURLToPath(new URL('../docs/architecture.md', import.meta.url));
/** Marks an allowed edge that closes a cycle existing today (see the row's note). */
export const CYCLE_MARK = '†';

/**
 * The table's rows, in order: `{ element, allowed: [{ element, cycle }] }`. An element is a folder
 * of `src/` written `name/`, `mcp/*.ts` (the files directly in `src/mcp/`), `*.ts` (the top-level
 * files but `index.ts`) or `index.ts`.
 * @throws Error when the markers or the table are missing, or a row names an unknown element.
 */
export function readFolderDirections(doc = readFileSync(DOC, 'utf8')) {
  const match = /<!-- folder-directions:start -->([\s\S]*?)<!-- folder-directions:end -->/.exec(doc);
  if (!match) throw new Error('docs/architecture.md has no folder-directions table');
  const rows = match[1]
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [element, allowed] = line
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim());
      return {
        element: element.replaceAll('`', ''),
        allowed:
          allowed === 'none'
            ? []
            : allowed.split(',').map((entry) => ({
                element: entry.trim().replaceAll('`', '').replace(CYCLE_MARK, ''),
                cycle: entry.includes(CYCLE_MARK),
              })),
      };
    });
  const known = new Set(rows.map((row) => row.element));
  for (const row of rows) {
    for (const { element } of row.allowed) {
      if (!known.has(element)) throw new Error(`folder directions: ${row.element} names unknown "${element}"`);
    }
  }
  return rows;
}

/** The files of an element, as flat-config globs (relative to the repository root). */
export function elementFiles(element) {
  if (element === 'index.ts') return { files: ['src/index.ts'] };
  if (element === '*.ts') return { files: ['src/*.ts'], ignores: ['src/index.ts'] };
  if (element === 'mcp/*.ts') return { files: ['src/mcp/*.ts'] };
  return { files: [`src/${element}**/*.ts`] };
}

/** The same files as an import target (`from` of a zone): a path or a glob under `./src`. */
function elementFrom(element) {
  if (element === 'index.ts') return './src/index.ts';
  if (element === '*.ts') return './src/!(index).ts';
  if (element === 'mcp/*.ts') return './src/mcp/*.ts';
  return `./src/${element.slice(0, -1)}`;
}

/**
 * One flat-config block per element: its files may import nothing of another element but what
 * its row allows.
 */
export function folderDirectionBlocks(rows = readFolderDirections()) {
  return rows.map((row) => {
    const allowed = new Set([row.element, ...row.allowed.map((entry) => entry.element)]);
    const zones = rows
      .filter((other) => !allowed.has(other.element))
      .map((other) => ({
        target: './src',
        from: elementFrom(other.element),
        message: `${row.element} may not import ${other.element}: see "Folder directions" in docs/architecture.md.`,
      }));
    return { ...elementFiles(row.element), rules: { 'import-x/no-restricted-paths': ['error', { zones }] } };
  });
}
