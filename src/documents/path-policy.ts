/**
 * Path rules shared by folder scans, reads and watching: the root boundary, extension filters and
 * the names that are never exposed.
 */
import type { Stats } from 'node:fs';
import path from 'node:path';
import { nodeFs, nodeOs } from '../lazy-module.js';

/** Directory names never scanned, at any depth. Dot-files and dot-folders are excluded as well. */
export const ALWAYS_IGNORED_DIRECTORIES: readonly string[] = ['node_modules'];

/** True when `target` is `root` itself or lies below it. Both must be absolute and already resolved. */
export function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * True when a path relative to a folder root has a hidden segment (starts with `.`) or a segment in
 * {@link ALWAYS_IGNORED_DIRECTORIES}. Accepts `/` or the platform separator.
 */
export function isHiddenRelativePath(relativePath: string): boolean {
  return relativePath
    .split(/[\\/]/)
    .some(
      (segment) =>
        (segment.startsWith('.') && segment !== '.' && segment !== '..') ||
        ALWAYS_IGNORED_DIRECTORIES.includes(segment),
    );
}

/** Normalizes an extension filter: lower case, leading dots removed, empties dropped, duplicates removed. */
export function normalizeExtensions(extensions: readonly string[]): string[] {
  const normalized = extensions.map((ext) => ext.trim().replace(/^\.+/, '').toLowerCase()).filter((ext) => ext !== '');
  return [...new Set(normalized)];
}

/**
 * True when a file name ends with one of the extensions (a set of normalized extensions, see
 * {@link normalizeExtensions}); multi-part extensions match too (`a.tar.gz` matches `gz` and `tar.gz`).
 */
export function hasAllowedExtension(fileName: string, extensions: Pick<ReadonlySet<string>, 'has'>): boolean {
  const base = path.basename(fileName).toLowerCase();
  for (let dot = base.indexOf('.', 1); dot !== -1; dot = base.indexOf('.', dot + 1)) {
    if (extensions.has(base.slice(dot + 1))) return true;
  }
  return false;
}

/**
 * The path meant by one that starts with `~` (only a shell expands it, and a desktop MCP client passes it as is), or
 * undefined for any other path.
 */
export function tildeExpansion(given: string): string | undefined {
  return /^~(\/|$)/.test(given) ? path.join(nodeOs().homedir(), given.slice(1)) : undefined;
}

/** `fs.realpathSync`, or `undefined` when the path (or a link target on it) does not exist. */
export function realpathOrUndefined(target: string): string | undefined {
  try {
    return nodeFs().realpathSync(target);
  } catch {
    return undefined;
  }
}

/** `fs.statSync` following links, or `undefined` when the path cannot be stat'ed (missing, no permission, bad name). */
export function statOrUndefined(target: string): Stats | undefined {
  try {
    return nodeFs().statSync(target);
  } catch {
    return undefined;
  }
}

/** True for the error codes that mean "this path is gone" (ENOENT, ENOTDIR). */
export function isMissingFileError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
