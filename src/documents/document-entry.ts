/**
 * Builds the record behind one registered file: its public resource (URI, name, announced MIME type)
 * and what a read needs (override, limits, root policy).
 */
import { pathToFileURL } from 'node:url';
import { nodeFs } from '../lazy-module.js';
import type { ConverterRegistry } from '../converters/converter-registry.js';
import { essenceOf, extensionOf, looksLikeText, mimeTypeFromPath } from '../converters/mime.js';
import type { DocumentResource, StoredDocument } from './document-types.js';

/** Everything {@link makeStoredDocument} needs about one file. */
export interface EntryInput {
  /** Absolute path (not resolved through links). */
  path: string;
  name: string;
  title: string | undefined;
  description: string | undefined;
  /** The config's `mimeType` override. */
  mimeType: string | undefined;
  /** Size in bytes at registration. */
  size: number;
  /** Per-file read limit in bytes. */
  maxFileSizeBytes: number;
  /** Folder entries: the absolute, resolved root and whether links may leave it. */
  folder?: { root: string; followSymlinks: boolean };
}

/** Reads up to 8 KiB of a file to tell text from binary; false on any error. */
function headLooksLikeText(file: string): boolean {
  const fs = nodeFs();
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const head = new Uint8Array(8192);
      return looksLikeText(head.subarray(0, fs.readSync(fd, head, 0, head.length, 0)));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * The path and name as parts of the URI's string where they are spelt the same (`file://` + path, no
 * %-encoding): V8 then keeps each as a slice of the URI (32 bytes) instead of a copy of its characters
 * (100 bytes and more each, for every entry of a large folder; docs/performance.md, W8). Same values.
 */
function sharedStrings(uri: string, input: EntryInput): { path: string; name: string } {
  const { path, name } = input;
  if (uri.length !== path.length + 7 || !uri.endsWith(path)) return { path, name };
  const shared = uri.slice(7);
  return { path: shared, name: shared.endsWith(name) ? shared.slice(shared.length - name.length) : name };
}

/**
 * The announced MIME type is what `read` will return: the chosen converter's output type, or the source type
 * (override, else by name). Folder entries read no content; a single file with an unknown name gets a cheap
 * look at its first bytes (text/plain vs application/octet-stream).
 */
export function makeStoredDocument(input: EntryInput, converters: ConverterRegistry): StoredDocument {
  const byName = input.mimeType ?? mimeTypeFromPath(input.path);
  const textHead = byName === undefined && input.folder === undefined && headLooksLikeText(input.path);
  const source = byName ?? (textHead ? 'text/plain' : 'application/octet-stream');
  const converter = converters.find(source, extensionOf(input.path));
  const uri = pathToFileURL(input.path).href;
  const { path, name } = sharedStrings(uri, input);
  const resource: DocumentResource = {
    uri,
    name,
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    mimeType: converter.outputMimeType ?? essenceOf(source),
    path,
    // The root as given (already absolute): one string shared by every entry of the folder.
    ...(input.folder !== undefined ? { root: input.folder.root } : {}),
    size: input.size,
  };
  return {
    resource: Object.freeze(resource),
    mimeOverride: input.mimeType,
    followSymlinks: input.folder?.followSymlinks ?? false,
    maxFileSizeBytes: input.maxFileSizeBytes,
  };
}
