import { toBase64 } from '../bytes.js';
import type { ReadResourceResult } from '@modelcontextprotocol/server';

/**
 * One item of a read result as a resource may give it: text, or binary as base64 or raw bytes.
 * `uri` defaults to the URI being read and `mimeType` to the resource's `mimeType` (else
 * `text/plain` for text and `application/octet-stream` for binary).
 */
export type ResourceContentsInput =
  | { uri?: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri?: string; mimeType?: string; blob: string | Uint8Array; _meta?: Record<string, unknown> };

/**
 * What a resource's or template's `read()` may return (MCP `resources/read` result):
 * - a string: one text item,
 * - a `Uint8Array` (or `Buffer`): one binary item, sent base64-encoded,
 * - one {@link ResourceContentsInput} or an array of them (several items, e.g. a folder's files),
 * - a full `{ contents: [...] }` result.
 */
export type ResourceReadReturn =
  | string
  | Uint8Array
  | ResourceContentsInput
  | readonly ResourceContentsInput[]
  | { contents: readonly ResourceContentsInput[] };

/** The `contents` of a `resources/read` result. */
export type ResourceReadContents = ReadResourceResult['contents'];

const base64 = toBase64;

function toItem(item: ResourceContentsInput, uri: string, mimeType: string | undefined): ResourceReadContents[number] {
  if (item === null || typeof item !== 'object')
    throw new TypeError(`read() returned an unsupported value for ${uri}.`);
  const meta = item._meta === undefined ? {} : { _meta: item._meta };
  if ('text' in item && typeof item.text === 'string') {
    return { uri: item.uri ?? uri, mimeType: item.mimeType ?? mimeType ?? 'text/plain', text: item.text, ...meta };
  }
  if ('blob' in item && (typeof item.blob === 'string' || item.blob instanceof Uint8Array)) {
    const blob = typeof item.blob === 'string' ? item.blob : base64(item.blob);
    return { uri: item.uri ?? uri, mimeType: item.mimeType ?? mimeType ?? 'application/octet-stream', blob, ...meta };
  }
  throw new TypeError(`read() for ${uri} returned an item with neither "text" nor "blob".`);
}

/**
 * Normalizes what `read()` returned into `resources/read` contents.
 * @param uri - the URI being read (default `uri` of every item).
 * @param mimeType - the resource's declared MIME type, if any.
 * @throws TypeError when the value is none of the {@link ResourceReadReturn} shapes.
 */
export function toResourceContents(
  value: ResourceReadReturn,
  uri: string,
  mimeType: string | undefined,
): ResourceReadContents {
  if (typeof value === 'string') return [{ uri, mimeType: mimeType ?? 'text/plain', text: value }];
  if (value instanceof Uint8Array)
    return [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: base64(value) }];
  if (Array.isArray(value)) return value.map((item: ResourceContentsInput) => toItem(item, uri, mimeType));
  if (value !== null && typeof value === 'object' && 'contents' in value && Array.isArray(value.contents)) {
    return value.contents.map((item) => toItem(item, uri, mimeType));
  }
  return [toItem(value as ResourceContentsInput, uri, mimeType)];
}
