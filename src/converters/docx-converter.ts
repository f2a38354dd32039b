/**
 * Word (.docx) -> Markdown via mammoth (DOCX -> semantic HTML) and turndown (HTML -> Markdown).
 */
import {
  BUILTIN_CONVERTERS_MODULE,
  DEFAULT_MAX_INFLATED_BYTES,
  type ConvertedContent,
  type Converter,
  type ConverterInput,
  type ConverterWorkerSpec,
} from './converter.js';

/** MIME type of a Word 2007+ document. */
export const DOCX_MIME_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * Converts headings, lists, tables, links and emphasis to Markdown; embedded images become
 * `[image: alt text]` (their bytes are not inlined). Output: `{ kind: 'text', mimeType: 'text/markdown' }`.
 *
 * Rejects with `Error("not a valid DOCX file: ...")` when the bytes are not a readable Word document
 * (not a zip, or a zip without `word/document.xml`), and with `ConversionLimitError('inflated')` when
 * the archive declares or inflates to more than `input.maxInflatedBytes` (default 100 MiB), before
 * mammoth inflates it. Legacy `.doc` files are not supported.
 */
export class DocxConverter implements Converter {
  readonly name = 'docx';
  readonly mimeTypes: readonly string[] = [DOCX_MIME_TYPE];
  readonly extensions: readonly string[] = ['docx'];
  readonly outputMimeType = 'text/markdown';
  /** mammoth unzips and parses XML from the file: run in a conversion process. */
  readonly worker: ConverterWorkerSpec = { module: BUILTIN_CONVERTERS_MODULE, exportName: 'DocxConverter' };

  async convert(input: ConverterInput): Promise<ConvertedContent> {
    // Loaded on first use, like pdf.js: most servers never read a DOCX (and a bomb never loads mammoth).
    const { assertZipWithinLimit } = await import('./zip-limits.js');
    await assertZipWithinLimit(input.bytes, input.path, input.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES);
    const [{ htmlToMarkdown }, { default: mammoth }] = await Promise.all([
      import('./html-to-markdown.js'),
      import('mammoth'),
    ]);
    let html: string;
    try {
      const result = await mammoth.convertToHtml(
        { buffer: Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength) },
        // Keep the alt text, drop the pixels: a data URI would bloat the text with base64.
        { convertImage: mammoth.images.imgElement(async () => ({ src: '' })), externalFileAccess: false },
      );
      html = result.value;
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`not a valid DOCX file: ${detail}`, { cause: error });
    }
    return { kind: 'text', text: htmlToMarkdown(html), mimeType: 'text/markdown' };
  }
}
