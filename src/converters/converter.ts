/**
 * The converter contract: turn the bytes of one file into MCP resource contents.
 *
 * A converter is chosen by MIME type (exact or wildcard) or by file extension through a
 * {@link ../converter-registry.ts ConverterRegistry}; it never touches the file system itself.
 */

/**
 * What a converter produces: readable text, or raw bytes that the caller base64-encodes.
 *
 * `mimeType` is the type of the converted content (e.g. `text/plain` for a PDF turned into text).
 */
export type ConvertedContent =
  { kind: 'text'; text: string; mimeType: string } | { kind: 'blob'; data: Uint8Array; mimeType: string };

/** The input of {@link Converter.convert}: the file's path (for messages), its full bytes and its detected MIME type. */
export interface ConverterInput {
  /** Absolute path of the file; used in error messages and for extension hints, never re-read. */
  path: string;
  /** The whole file content. Converters must not keep or mutate it. */
  bytes: Uint8Array;
  /** The file's MIME type (detected or overridden), possibly with parameters such as `; charset=latin1`. */
  mimeType: string;
}

/**
 * Turns file bytes into {@link ConvertedContent}. Register custom ones with `ConverterRegistry.register`.
 *
 * `convert` rejects with an `Error` whose message states the reason (e.g. "the PDF is encrypted");
 * the document layer wraps it into a `DocumentReadError('CONVERSION_FAILED')` naming the file.
 */
export interface Converter {
  /** Short unique name, used in error messages (e.g. `pdf`). */
  readonly name: string;
  /** MIME types handled: exact ('application/pdf') or wildcard ('text/*', '*\/*'). Lower case. */
  readonly mimeTypes: readonly string[];
  /** Optional: extensions (no dot, lower case) this converter claims, e.g. ['docx']. */
  readonly extensions?: readonly string[];
  /**
   * Optional: the MIME type every conversion produces (e.g. `text/plain` for PDF). Omit when the output keeps
   * the input's type (text, binary). Used to announce a resource's type before it is read.
   */
  readonly outputMimeType?: string;
  /** Converts one file. Rejects with a clear `Error` when the content cannot be converted. */
  convert(input: ConverterInput): Promise<ConvertedContent>;
}
