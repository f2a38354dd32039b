/**
 * Conversions that failed, remembered per file version, so that a hostile file (a bomb that hit a limit,
 * a corrupt PDF) is not converted again on every read: the same unchanged file answers the same error
 * at once, and is tried again once it changes on disk (size, mtime or inode).
 */
import type { Stats } from 'node:fs';
import type { Converter } from '../converters/converter.js';

/** The file version and read settings a failure belongs to. */
export interface FailureKey {
  size: number;
  mtimeMs: number;
  ino: number;
  mimeOverride: string | undefined;
  /** The detected (or overridden) type that chose the converter. */
  sourceMimeType: string;
  converter: Converter;
}

/** Builds the key of a read of a file with these stats. */
export function failureKey(
  stats: Stats,
  mimeOverride: string | undefined,
  sourceMimeType: string,
  converter: Converter,
): FailureKey {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino, mimeOverride, sourceMimeType, converter };
}

function sameVersion(a: FailureKey, b: Pick<FailureKey, 'size' | 'mtimeMs' | 'ino' | 'mimeOverride'>): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.mimeOverride === b.mimeOverride;
}

/** A bounded map path -> last failure (oldest forgotten first). */
export class ConversionFailures {
  readonly #failures = new Map<string, { key: FailureKey; error: Error }>();

  /** @param maxEntries files remembered at most (default 1,000). */
  constructor(readonly maxEntries = 1000) {}

  /**
   * The remembered error for this file version, or `undefined`. `converterOf` tells which converter would
   * run now for the remembered source type (a newly registered converter gets a fresh try).
   */
  get(
    path: string,
    version: Pick<FailureKey, 'size' | 'mtimeMs' | 'ino' | 'mimeOverride'>,
    converterOf: (key: FailureKey) => Converter,
  ): Error | undefined {
    const entry = this.#failures.get(path);
    if (entry === undefined) return undefined;
    if (sameVersion(entry.key, version) && converterOf(entry.key) === entry.key.converter) return entry.error;
    this.#failures.delete(path);
    return undefined;
  }

  /** Remembers `error` for this file version. */
  set(path: string, key: FailureKey, error: Error): void {
    this.#failures.delete(path);
    this.#failures.set(path, { key, error });
    if (this.#failures.size > this.maxEntries) {
      const oldest = this.#failures.keys().next().value;
      if (oldest !== undefined) this.#failures.delete(oldest);
    }
  }

  /** Forgets the failure of one file (it changed, or was unregistered). */
  delete(path: string): void {
    this.#failures.delete(path);
  }

  /** Forgets everything. */
  clear(): void {
    this.#failures.clear();
  }
}
