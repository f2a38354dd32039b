/**
 * The lazy read path: check the file, reuse or produce its converted content, shape it as MCP contents.
 */
import fsp from 'node:fs/promises';
import { constants as fsConstants, type Stats } from 'node:fs';
import type { Converter } from '../converters/converter.js';
import type { ConverterRegistry } from '../converters/converter-registry.js';
import { detectMimeType, extensionOf } from '../converters/mime.js';
import type { ConversionPool } from '../converters/pool/conversion-pool.js';
import { DocumentNotFoundError, DocumentReadError, InvalidPathError } from '../errors.js';
import { ContentCache } from './content-cache.js';
import { ConversionFailures, failureKey } from './conversion-failures.js';
import type { DocumentReadContents, StoredDocument } from './document-types.js';
import { isInside, isMissingFileError } from './path-policy.js';

/** One converted content item without its URI. */
type Content = { mimeType: string; text: string } | { mimeType: string; blob: string };

/**
 * What the cache keeps per path; valid while size, mtime, ctime, mode, override and chosen converter are
 * unchanged and the file is still readable (see {@link stillServable}).
 */
export interface CachedContent {
  size: number;
  mtimeMs: number;
  /** Changes on chmod/chown/rename too: revoked access is never answered from the cache. */
  ctimeMs: number;
  mode: number;
  mimeOverride: string | undefined;
  sourceMimeType: string;
  converter: Converter;
  content: Content;
}

/** What a read uses besides the document: the store's converters, cache, pool and remembered failures. */
export interface ReadContext {
  converters: ConverterRegistry;
  cache: ContentCache<CachedContent>;
  pool: ConversionPool;
  failures: ConversionFailures;
  /** Conversions running now, by path and file version: concurrent reads of one file share one conversion. */
  inflight: Map<string, Flight>;
}

/** A conversion running now, and the signal of the read that started it (which may end it before it converts). */
interface Flight {
  readonly content: Promise<Content>;
  readonly signal: AbortSignal | undefined;
}

/** A store's read state as its first read makes it: an empty cache of `cacheMaxBytes`, nothing failed or running. */
export function createReadContext(
  converters: ConverterRegistry,
  pool: ConversionPool,
  cacheMaxBytes: number,
): ReadContext {
  return {
    converters,
    pool,
    cache: new ContentCache(cacheMaxBytes),
    failures: new ConversionFailures(),
    inflight: new Map(),
  };
}

/** Throws `DocumentNotFoundError` for "file gone" errors, rethrows anything else. */
function rethrowMissing(doc: StoredDocument, error: unknown): never {
  if (isMissingFileError(error)) {
    const { uri, path } = doc.resource;
    throw new DocumentNotFoundError(uri, `Resource not found: ${uri} (the file ${path} no longer exists)`);
  }
  throw error;
}

/** Folder entries: the file must still resolve (through symlinks) inside its root. */
async function assertInsideRoot(doc: StoredDocument): Promise<void> {
  const { root, path } = doc.resource;
  if (root === undefined || doc.followSymlinks) return;
  const [realRoot, realPath] = await Promise.all([fsp.realpath(root), fsp.realpath(path)]);
  if (!isInside(realRoot, realPath)) {
    // The message names the registered path only, not where the link now points.
    throw new InvalidPathError(
      'PATH_OUTSIDE_ROOT',
      path,
      `Refusing to read ${path}: it now resolves outside its folder ${root}`,
    );
  }
}

/** Current stats of a regular file within limits; throws the documented errors otherwise. */
async function checkFile(doc: StoredDocument): Promise<Stats> {
  const { uri, path } = doc.resource;
  let stats: Stats;
  try {
    await assertInsideRoot(doc);
    stats = await fsp.stat(path);
  } catch (error) {
    rethrowMissing(doc, error);
  }
  if (!stats.isFile())
    throw new DocumentNotFoundError(uri, `Resource not found: ${uri} (${path} is no longer a regular file)`);
  if (stats.size > doc.maxFileSizeBytes) throw tooLarge(doc, stats.size);
  return stats;
}

function tooLarge(doc: StoredDocument, size: number): DocumentReadError {
  const { path } = doc.resource;
  return new DocumentReadError(
    'RESOURCE_TOO_LARGE',
    path,
    `Cannot read ${path}: it is ${size} bytes, over the ${doc.maxFileSizeBytes}-byte limit`,
  );
}

/** Runs the converter (through the pool) and shapes its output; wraps failures into `CONVERSION_FAILED`. */
async function convert(
  doc: StoredDocument,
  pool: ConversionPool,
  converter: Converter,
  bytes: Uint8Array,
  mimeType: string,
): Promise<Content> {
  const { path } = doc.resource;
  try {
    const out = await pool.convert(converter, { path, bytes, mimeType });
    if (out.kind === 'text') return { mimeType: out.mimeType, text: out.text };
    return {
      mimeType: out.mimeType,
      blob: Buffer.from(out.data.buffer, out.data.byteOffset, out.data.byteLength).toString('base64'),
    };
  } catch (error) {
    if (error instanceof DocumentReadError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new DocumentReadError(
      'CONVERSION_FAILED',
      path,
      `Cannot convert ${path} (${mimeType}) with the "${converter.name}" converter: ${reason}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * Whether a cached conversion may still be served: the file's permissions and inode metadata are
 * unchanged (ctime moves on chmod, chown, link changes) and this process can still read it. A file
 * made unreadable after it was cached (say, chmod 000) is then read afresh, which fails as a first
 * read would, instead of being served from memory.
 */
async function stillServable(hit: CachedContent, stats: Stats, path: string): Promise<boolean> {
  if (hit.ctimeMs !== stats.ctimeMs || hit.mode !== stats.mode) return false;
  try {
    await fsp.access(path, fsConstants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** Approximate memory cost of a content item in bytes (UTF-16 strings: two bytes per code unit). */
function costOf(content: Content): number {
  return 2 * ('text' in content ? content.text.length : content.blob.length);
}

/**
 * Reads one document now: re-checks the root boundary, stats the file, returns the cached conversion when
 * the file is unchanged, answers the remembered failure when this unchanged file failed before, else reads,
 * detects (unless overridden), converts (in the pool, under its limits) and caches (unless `keep` is
 * false). Concurrent reads of the same file version share one conversion. Once `signal` aborts, the read
 * stops at its next step and starts no conversion (a background index stopping with its store must not
 * start conversion processes after `close()`); a conversion another read is waiting for is not ended by it.
 *
 * @throws the signal's reason when `signal` aborts before the content is ready
 * @throws DocumentNotFoundError the file vanished or is no longer a regular file
 * @throws InvalidPathError `PATH_OUTSIDE_ROOT` when a folder entry now resolves outside its root
 * @throws DocumentReadError `RESOURCE_TOO_LARGE`, `CONVERSION_FAILED` or (`ConversionLimitError`)
 *   `CONVERSION_LIMIT`; the message names file and reason
 */
export async function readDocument(
  doc: StoredDocument,
  context: ReadContext,
  keep = true,
  signal?: AbortSignal,
): Promise<DocumentReadContents> {
  const { converters, cache, failures } = context;
  const { uri, path } = doc.resource;
  const stats = await checkFile(doc);
  signal?.throwIfAborted();
  const extension = extensionOf(path);
  const hit = cache.get(path);
  if (
    hit !== undefined &&
    hit.size === stats.size &&
    hit.mtimeMs === stats.mtimeMs &&
    hit.mimeOverride === doc.mimeOverride &&
    converters.find(hit.sourceMimeType, extension) === hit.converter &&
    (await stillServable(hit, stats, path))
  ) {
    return [{ uri, ...hit.content }];
  }
  const version = { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino, mimeOverride: doc.mimeOverride };
  const failed = failures.get(path, version, (key) => converters.find(key.sourceMimeType, extension));
  if (failed !== undefined) throw failed;
  const flightKey = `${path}\0${stats.size}\0${stats.mtimeMs}\0${stats.ino}\0${doc.mimeOverride ?? ''}`;
  signal?.throwIfAborted();
  let flight = context.inflight.get(flightKey);
  if (flight === undefined) {
    flight = { content: convertNow(doc, context, stats, extension, keep, signal), signal };
    context.inflight.set(flightKey, flight);
    void flight.content.then(
      () => context.inflight.delete(flightKey),
      () => context.inflight.delete(flightKey),
    );
  }
  try {
    return [{ uri, ...(await flight.content) }];
  } catch (error) {
    // The read that started it was aborted before it converted: this one converts for itself (the entry is gone).
    const ended = flight.signal;
    if (ended !== signal && ended?.aborted === true && error === ended.reason) {
      return readDocument(doc, context, keep, signal);
    }
    throw error;
  }
}

/** Reads, detects, converts and caches (or remembers the failure of) one file version; see `readDocument` for `signal`. */
async function convertNow(
  doc: StoredDocument,
  context: ReadContext,
  stats: Stats,
  extension: string,
  keep: boolean,
  signal: AbortSignal | undefined,
): Promise<Content> {
  const { path } = doc.resource;
  let bytes: Uint8Array;
  try {
    bytes = await fsp.readFile(path);
  } catch (error) {
    rethrowMissing(doc, error);
  }
  if (bytes.length > doc.maxFileSizeBytes) throw tooLarge(doc, bytes.length);
  const sourceMimeType = doc.mimeOverride ?? (await detectMimeType(path, bytes));
  signal?.throwIfAborted(); // the last step before a conversion (and perhaps a conversion process) starts
  const converter = context.converters.find(sourceMimeType, extension);
  let content: Content;
  try {
    content = await convert(doc, context.pool, converter, bytes, sourceMimeType);
  } catch (error) {
    // A conversion failure is a property of this file version: remember it (not "pool closed" at shutdown).
    if (error instanceof DocumentReadError && !/the conversion pool is closed/.test(error.message))
      context.failures.set(path, failureKey(stats, doc.mimeOverride, sourceMimeType, converter), error);
    throw error;
  }
  if (!keep) return content;
  const entry = {
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    mode: stats.mode,
    mimeOverride: doc.mimeOverride,
    sourceMimeType,
    converter,
    content,
  };
  context.cache.set(path, entry, costOf(content));
  return content;
}
