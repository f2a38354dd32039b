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
  /**
   * Optional cap on the converted text, in characters. A converter that produces text in steps (the PDF
   * converter, page by page) should stop once past it and reject with `ConversionLimitError('output', ...)`
   * (from `src/errors.ts`), so a decompression bomb is stopped early; whoever runs the converter checks the
   * final length anyway.
   */
  maxOutputChars?: number;
  /**
   * Optional cap on the bytes an archive-based format (DOCX, and any zip a converter opens) may inflate
   * to. A converter that unzips should check the sizes the central directory declares before inflating and
   * count the bytes while inflating, and reject with `ConversionLimitError('inflated', path, limit)` once
   * past it (see `src/converters/zip-limits.ts`).
   */
  maxInflatedBytes?: number;
}

/** Default most bytes an archive (DOCX) may inflate to, all entries together: 100 MiB. */
export const DEFAULT_MAX_INFLATED_BYTES = 100 * 1024 * 1024;

/**
 * The `module` of the built-in converters' worker specs: the worker entry has them built in (it is bundled
 * with them), so no per-file module path is needed.
 */
export const BUILTIN_CONVERTERS_MODULE = 'mcp-toolkit:built-in-converters';

/**
 * Where a conversion process finds an equivalent of a converter: an ES module (file URL or absolute path)
 * exporting, under `exportName`, a class whose no-argument constructor builds the same converter.
 * Converters with a `worker` spec run in the document store's pool of conversion processes, under its
 * time, heap, output and inflated-size limits; those without run on the calling thread. A module given as a `.ts` file (sources run by
 * vitest) is replaced by its built twin under `dist/` (see `src/converters/pool/worker-module.ts`).
 */
export interface ConverterWorkerSpec {
  /**
   * The module's URL (`import.meta.url` of the converter's own file, a JavaScript file) or absolute path;
   * {@link BUILTIN_CONVERTERS_MODULE} for the built-in PDF, DOCX and HTML converters.
   */
  module: string;
  /** The name of the exported class. */
  exportName: string;
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
  /**
   * Optional: run this converter off the main thread (see {@link ConverterWorkerSpec}). Every converter that
   * parses untrusted structure (PDF, DOCX, HTML) should set it, so one hostile file cannot block the server.
   */
  readonly worker?: ConverterWorkerSpec;
  /** Converts one file. Rejects with a clear `Error` when the content cannot be converted. */
  convert(input: ConverterInput): Promise<ConvertedContent>;
}
