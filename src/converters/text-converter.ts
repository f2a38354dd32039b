/**
 * Text files (plain text, markdown, CSV, JSON, XML, YAML, source code...) decoded to a string.
 */
import type { ConvertedContent, Converter, ConverterInput } from './converter.js';
import { TEXT_APPLICATION_TYPES, essenceOf } from './mime.js';

/** The `charset` parameter of a MIME type (`text/plain; charset=latin1` -> `latin1`), or `undefined`. */
function charsetOf(mimeType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(mimeType);
  return match?.[1];
}

/** Decodes with a charset label, or returns `undefined` when the runtime does not know the label. */
function decodeWith(label: string, bytes: Uint8Array): string | undefined {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label);
  } catch {
    return undefined;
  }
  return decoder.decode(bytes);
}

/**
 * Decodes text bytes to a string.
 *
 * A byte-order mark decides first: UTF-8 (stripped), UTF-16 LE or BE. Without one, an explicit
 * `charset` (e.g. from a `mimeType` override like `text/plain; charset=latin1`) is used when the runtime knows
 * it; otherwise the bytes are read as UTF-8, and when they are not valid UTF-8 as Windows-1252 (Latin-1),
 * so legacy files still read instead of showing replacement characters.
 */
export function decodeText(bytes: Uint8Array, charset?: string): string {
  const [a, b, c] = bytes;
  if (a === 0xef && b === 0xbb && c === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (a === 0xff && b === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (a === 0xfe && b === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const explicit = charset === undefined ? undefined : decodeWith(charset, bytes);
  if (explicit !== undefined) return explicit;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * Handles `text/*` and textual application types (JSON, XML, YAML, JavaScript, SQL, shell...).
 * Output: `{ kind: 'text' }` with the input's MIME type (without parameters, since the text is decoded).
 */
export class TextConverter implements Converter {
  readonly name = 'text';
  readonly mimeTypes: readonly string[] = ['text/*', ...TEXT_APPLICATION_TYPES];

  /** Decodes the bytes with {@link decodeText}; never rejects. */
  async convert(input: ConverterInput): Promise<ConvertedContent> {
    return {
      kind: 'text',
      text: decodeText(input.bytes, charsetOf(input.mimeType)),
      mimeType: essenceOf(input.mimeType),
    };
  }
}
