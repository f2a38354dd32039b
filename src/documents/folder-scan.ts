/**
 * Synchronous recursive folder scan applying the path policy: dot-files and `node_modules`
 * skipped, `ignore` globs (picomatch), extension filter, size limit, symlink boundary.
 *
 * The walk is `fs.readdirSync` with file types, one folder at a time; the globs are picomatch's.
 * No glob library: the walk needs no glob of its own (the only patterns are the ignore globs,
 * matched with picomatch per entry), and loading one weighs on cold start (docs/performance.md, W0).
 */
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { lazyRequire, nodeFs } from '../lazy-module.js';
import { ALWAYS_IGNORED_DIRECTORIES, hasAllowedExtension, isInside, realpathOrUndefined } from './path-policy.js';

// Loaded with the first folder that has ignore globs.
const loadPicomatch = lazyRequire<typeof import('picomatch')>('picomatch');

/** Answers whether a file with this extension (lower case, no dot) is served. */
export type ExtensionFilter = Pick<ReadonlySet<string>, 'has'>;

/** Options of {@link scanFolder}; extensions must already be normalized. */
export interface ScanOptions {
  /** Allowed extensions (lower case, no dot): a set, or the converters' own test. */
  extensions: ExtensionFilter;
  /** Glob patterns relative to the root; a pattern matching a folder excludes everything below it. */
  ignore: readonly string[];
  /** Follow links leaving the root and descend into symlinked folders. */
  followSymlinks: boolean;
  /** Files larger than this (bytes) are skipped (and listed in {@link FolderScan.tooLarge}). */
  maxFileSizeBytes: number;
}

/** One file found by {@link scanFolder}. */
export interface ScannedFile {
  /** Absolute path as reached from the root (through links, not resolved). */
  path: string;
  /** Path relative to the root with `/` separators, e.g. `sub/guide.md`. */
  name: string;
  /** Size in bytes at scan time. */
  size: number;
}

/** What {@link scanFolder} found: the files to register, and those the size limit leaves out. */
export interface FolderScan {
  /** Files that pass the policy, sorted by name. */
  files: ScannedFile[];
  /** Files that pass every rule but the size limit, sorted by name. */
  tooLarge: ScannedFile[];
}

/** The entries of one folder, or none when it cannot be read (permissions, removed meanwhile). */
function entriesOf(dir: string): Dirent[] {
  try {
    return nodeFs().readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Hidden entries and always-ignored names (links to folders included) are never listed nor entered. */
function skipped(entry: Dirent): boolean {
  return entry.name.startsWith('.') || ALWAYS_IGNORED_DIRECTORIES.includes(entry.name);
}

/** True when the name or one of its parent folders matches an ignore pattern. */
function ignoredBy(matcher: ((name: string) => boolean) | undefined, name: string): boolean {
  if (matcher === undefined) return false;
  const segments = name.split('/');
  for (let i = 1; i <= segments.length; i++) if (matcher(segments.slice(0, i).join('/'))) return true;
  return false;
}

/**
 * Lists the files under `root` (an existing directory) that pass the policy, sorted by name, and apart
 * those that pass every rule but the size limit (so that the caller can say which files it left out).
 *
 * Symlinks: a link to a file is kept when its target resolves inside the root, or always with
 * `followSymlinks`; links to folders are descended into only with `followSymlinks` (each real folder once,
 * so link cycles end). Broken links and unreadable entries are skipped. Reads no file content.
 */
export function scanFolder(root: string, options: ScanOptions): FolderScan {
  const fs = nodeFs();
  const rootReal = fs.realpathSync(root);
  const matcher = options.ignore.length > 0 ? loadPicomatch()([...options.ignore], { dot: true }) : undefined;
  const visited = new Set([rootReal]);
  const found: ScannedFile[] = [];
  const tooLarge: ScannedFile[] = [];
  const accept = (name: string, size: number): void => {
    if (!hasAllowedExtension(name, options.extensions)) return;
    (size <= options.maxFileSizeBytes ? found : tooLarge).push({
      path: path.join(root, ...name.split('/')),
      name,
      size,
    });
  };
  const walk = (dir: string, prefix: string): void => {
    for (const entry of entriesOf(dir)) {
      if (skipped(entry)) continue;
      const name = prefix + entry.name;
      if (ignoredBy(matcher, name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (options.followSymlinks) {
          // Each real folder once, however it is reached (a link may lead into a folder of the root).
          const real = realpathOrUndefined(full);
          if (real === undefined || visited.has(real)) continue;
          visited.add(real);
        }
        walk(full, `${name}/`);
        continue;
      }
      if (entry.isFile()) {
        const stats = fs.statSync(full, { throwIfNoEntry: false });
        if (stats?.isFile()) accept(name, stats.size);
        continue;
      }
      if (!entry.isSymbolicLink()) continue;
      const real = realpathOrUndefined(full);
      if (real === undefined || (!options.followSymlinks && !isInside(rootReal, real))) continue;
      const target = fs.statSync(real, { throwIfNoEntry: false });
      if (target?.isFile()) accept(name, target.size);
      else if (target?.isDirectory() && options.followSymlinks && !visited.has(real)) {
        visited.add(real);
        walk(full, `${name}/`);
      }
    }
  };
  walk(root, '');
  const byName = (a: ScannedFile, b: ScannedFile) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return { files: found.sort(byName), tooLarge: tooLarge.sort(byName) };
}
