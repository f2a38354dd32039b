import type { CallToolResult } from '@modelcontextprotocol/server';
import { UserError } from '../errors.js';

/** What a failed call's message needs to say where it went and how to fix it. */
export interface CallDescription {
  /** `GET http://127.0.0.1:8080/api/v3/pet/7` */
  readonly target: string;
  /** The path arguments, named in a 404 hint. */
  readonly pathArguments: readonly string[];
  /** Security scheme names the operation accepts, named in a 401 hint. */
  readonly schemes: readonly string[];
}

const ERROR_BODY_CHARS = 500;

/** Reads at most `maxBytes` of the body; a longer one is an error rather than a memory spike. */
async function readBody(response: Response, maxBytes: number, call: CallDescription): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  const tooLarge = () =>
    new UserError(`${call.target} answered with more than ${maxBytes} bytes (maxResponseBytes); ask for less.`);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function mediaTypeOf(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

function isText(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    mediaType.endsWith('+xml') ||
    /^application\/(xml|javascript|x-www-form-urlencoded|yaml|x-yaml)$/.test(mediaType)
  );
}

/** The part of an error body worth showing: a JSON `message`/`error`/`detail`/`title`, else the text, cut. */
function errorDetail(bytes: Uint8Array, mediaType: string): string {
  const text = Buffer.from(bytes).toString('utf8').trim();
  if (isJson(mediaType)) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      for (const key of ['message', 'error_description', 'error', 'detail', 'title']) {
        if (typeof parsed?.[key] === 'string' && parsed[key]) return parsed[key];
      }
    } catch {
      // Not JSON after all: show the text.
    }
  }
  return text.length > ERROR_BODY_CHARS ? `${text.slice(0, ERROR_BODY_CHARS)}...` : text;
}

function hintFor(status: number, response: Response, call: CallDescription): string {
  if (status === 400 || status === 422) return 'Check the arguments against the tool input schema.';
  if (status === 401) {
    const schemes = call.schemes.length > 0 ? ` (this operation accepts: ${call.schemes.join(', ')})` : '';
    return `The API wants credentials${schemes}: configure them with fromOpenAPI's credentials or headers option.`;
  }
  if (status === 403) return 'The credentials lack permission for this operation.';
  if (status === 404) {
    return call.pathArguments.length > 0
      ? `Nothing there: check ${call.pathArguments.join(', ')}.`
      : 'Nothing there: check the arguments.';
  }
  if (status === 408 || status === 429 || status >= 500) {
    const after = response.headers.get('retry-after');
    return after ? `Retry after ${after} seconds.` : 'The API may recover: retry later.';
  }
  return '';
}

/**
 * Turns an HTTP response into a tool result (the body read up to `maxBytes`):
 * - 2xx JSON: pretty JSON text, and `structuredContent` when the value is an object;
 * - 2xx `image/*` / `audio/*`: an image / audio content block (base64);
 * - 2xx text (`text/*`, XML, YAML): one text block;
 * - 2xx other bytes: an embedded resource blob at the request URL;
 * - 2xx without a body: a text block saying so.
 *
 * @throws UserError for a non-2xx status, naming status, method and URL, the API's own message and
 *   what to do (check the arguments; configure credentials; retry later), and for a body over
 *   `maxBytes`.
 */
export async function toToolResult(
  response: Response,
  maxBytes: number,
  call: CallDescription,
): Promise<CallToolResult> {
  const bytes = await readBody(response, maxBytes, call);
  const mediaType = mediaTypeOf(response);
  if (!response.ok) {
    const detail = errorDetail(bytes, mediaType).replace(/[.\s]+$/, '');
    const hint = hintFor(response.status, response, call);
    const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    throw new UserError(`${call.target} failed with ${status}${detail ? `: ${detail}` : ''}.${hint ? ` ${hint}` : ''}`);
  }
  if (bytes.byteLength === 0) {
    return { content: [{ type: 'text', text: `${call.target}: HTTP ${response.status} (no content).` }] };
  }
  if (isJson(mediaType)) {
    const text = Buffer.from(bytes).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { content: [{ type: 'text', text }] };
    }
    const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      result.structuredContent = value as Record<string, unknown>;
    }
    return result;
  }
  const data = Buffer.from(bytes).toString('base64');
  if (mediaType.startsWith('image/')) return { content: [{ type: 'image', data, mimeType: mediaType }] };
  if (mediaType.startsWith('audio/')) return { content: [{ type: 'audio', data, mimeType: mediaType }] };
  if (isText(mediaType) || mediaType === '') {
    return { content: [{ type: 'text', text: Buffer.from(bytes).toString('utf8') }] };
  }
  const uri = response.url || call.target.slice(call.target.indexOf(' ') + 1);
  return { content: [{ type: 'resource', resource: { uri, mimeType: mediaType, blob: data } }] };
}
