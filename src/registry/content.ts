import { toBase64 } from '../bytes.js';
import type {
  AudioContent,
  EmbeddedResource,
  BlobResourceContents,
  ImageContent,
  ResourceLink,
  TextResourceContents,
} from '@modelcontextprotocol/server';
import { UserError } from '../errors.js';

/** Reads a file through Node's `fs` (reached lazily: this module also loads where there is none, e.g. workerd). */
async function readLocalFile(path: string): Promise<Uint8Array> {
  const fs = (globalThis as { process?: Partial<NodeJS.Process> }).process?.getBuiltinModule?.('node:fs/promises') as
    typeof import('node:fs/promises') | undefined;
  if (!fs)
    throw new UserError(`Cannot read ${path}: this runtime has no file system; pass the bytes or a URL instead.`);
  return fs.readFile(path);
}

/** Where media bytes come from: raw bytes, a file path, or an http(s) URL. */
export type MediaSource = Uint8Array | { path: string } | { url: string | URL };

/** Options of {@link imageContent} / {@link audioContent}. */
export interface MediaOptions {
  /** MIME type; sniffed from the bytes when omitted (e.g. `image/png`, `audio/wav`). */
  mimeType?: string;
  /** URL fetch time limit in ms (default 10,000). */
  timeoutMs?: number;
  /** Largest accepted size in bytes (default 20 MiB). */
  maxBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;

async function loadBytes(source: MediaSource, options: MediaOptions): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let bytes: Uint8Array;
  if (source instanceof Uint8Array) bytes = source;
  else if ('path' in source) bytes = await readLocalFile(source.path);
  else {
    const url = String(source.url);
    const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) }).catch(
      (error: unknown) => {
        throw new UserError(`Could not fetch ${url}: ${(error as Error).message}`);
      },
    );
    if (!response.ok) throw new UserError(`Could not fetch ${url}: HTTP ${response.status}`);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > maxBytes) throw new UserError(`${url} is ${declared} bytes, over the ${maxBytes}-byte limit.`);
    bytes = new Uint8Array(await response.arrayBuffer());
  }
  if (bytes.byteLength > maxBytes)
    throw new UserError(`Media is ${bytes.byteLength} bytes, over the ${maxBytes}-byte limit.`);
  return bytes;
}

async function media(kind: 'image' | 'audio', source: MediaSource, options: MediaOptions) {
  const bytes = await loadBytes(source, options);
  // file-type (and its ~60 modules) loads on the first media result without a mimeType, not at import.
  const mimeType = options.mimeType ?? (await (await import('file-type')).fileTypeFromBuffer(bytes))?.mime;
  if (!mimeType?.startsWith(`${kind}/`)) {
    throw new UserError(`Could not tell the ${kind} type of the data (got ${mimeType ?? 'unknown'}); pass mimeType.`);
  }
  return { data: toBase64(bytes), mimeType };
}

/**
 * An MCP image content block (`{ type: 'image', data: base64, mimeType }`) from bytes,
 * a file or a URL. @throws UserError when the data cannot be fetched, is too large, or
 * is not an image.
 */
export async function imageContent(source: MediaSource, options: MediaOptions = {}): Promise<ImageContent> {
  return { type: 'image', ...(await media('image', source, options)) };
}

/**
 * An MCP audio content block (`{ type: 'audio', data: base64, mimeType }`) from bytes,
 * a file or a URL. @throws UserError as {@link imageContent}.
 */
export async function audioContent(source: MediaSource, options: MediaOptions = {}): Promise<AudioContent> {
  return { type: 'audio', ...(await media('audio', source, options)) };
}

/** An MCP resource link content block (`{ type: 'resource_link', uri, name, ... }`), pointing at a resource by URI. */
export function resourceLink(link: Omit<ResourceLink, 'type'>): ResourceLink {
  return { type: 'resource_link', ...link };
}

/**
 * An MCP embedded resource content block (`{ type: 'resource', resource }`) from one
 * entry of a `resources/read` result, e.g. from `context.readResource(uri)`.
 */
export function embeddedResource(resource: TextResourceContents | BlobResourceContents): EmbeddedResource {
  return { type: 'resource', resource };
}
