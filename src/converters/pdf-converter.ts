/**
 * PDF -> plain text with pdf-parse v2 (pdf.js), one section per page.
 */
import { ConversionLimitError } from '../errors.js';
import {
  BUILTIN_CONVERTERS_MODULE,
  type ConvertedContent,
  type Converter,
  type ConverterInput,
  type ConverterWorkerSpec,
} from './converter.js';

/** The line that opens page `n` in the converted text. */
export function pdfPageHeader(pageNumber: number): string {
  return `--- page ${pageNumber} ---`;
}

/** A readable reason for a pdf.js / pdf-parse failure, keyed on the exception's name. */
function describePdfError(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  const detail = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') return `the PDF is encrypted (password-protected): ${detail}`;
  if (name === 'InvalidPDFException') return `the file is not a valid PDF or is corrupt: ${detail}`;
  if (name === 'FormatError') return `the PDF is malformed: ${detail}`;
  return `the PDF could not be parsed: ${detail}`;
}

/**
 * Extracts the text of every page. Output (`text/plain`): for each page a line `--- page N ---`, then the
 * page's text, pages separated by a blank line, so a reader can tell which page a passage is on. A page
 * without extractable text (e.g. a scan) yields just its header line.
 *
 * Rejects with `Error("the PDF is encrypted (password-protected): ...")` for encrypted files and
 * `Error("the file is not a valid PDF or is corrupt: ...")` for broken ones.
 */
export class PdfConverter implements Converter {
  readonly name = 'pdf';
  readonly mimeTypes: readonly string[] = ['application/pdf'];
  readonly extensions: readonly string[] = ['pdf'];
  readonly outputMimeType = 'text/plain';
  /** pdf.js parses untrusted structure and may inflate huge streams: run in a conversion process. */
  readonly worker: ConverterWorkerSpec = { module: BUILTIN_CONVERTERS_MODULE, exportName: 'PdfConverter' };

  async convert(input: ConverterInput): Promise<ConvertedContent> {
    // Loaded on first use: pdf.js is large and most servers never read a PDF.
    const [{ PDFParse }, { guardPdfOutput }] = await Promise.all([
      import('pdf-parse'),
      import('./pdf-output-guard.js'),
    ]);
    // pdf.js may transfer (detach) the buffer it is given: hand it a copy. Verbosity 0 = errors only,
    // so pdf.js never prints warnings to stdout (stdio servers speak JSON-RPC there).
    const parser = new PDFParse({ data: new Uint8Array(input.bytes), verbosity: 0 });
    const maxChars = input.maxOutputChars;
    if (maxChars !== undefined) guardPdfOutput(parser, { path: input.path, maxChars, used: 0 });
    try {
      const result = await parser.getText();
      const pages = result.pages.map((page) => `${pdfPageHeader(page.num)}\n${page.text.trim()}`);
      return { kind: 'text', text: pages.join('\n\n'), mimeType: 'text/plain' };
    } catch (error) {
      if (error instanceof ConversionLimitError) throw error;
      throw new Error(describePdfError(error), { cause: error });
    } finally {
      await parser.destroy().catch(() => undefined);
    }
  }
}
