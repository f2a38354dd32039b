/**
 * HTML -> Markdown, so a model reads headings, lists, links and tables instead of tags.
 */
import {
  BUILTIN_CONVERTERS_MODULE,
  type ConvertedContent,
  type Converter,
  type ConverterInput,
  type ConverterWorkerSpec,
} from './converter.js';
import { decodeText } from './text-converter.js';

/**
 * Handles `text/html` and `application/xhtml+xml`. Output: `{ kind: 'text', mimeType: 'text/markdown' }`.
 * Bytes are decoded like text files (BOM, UTF-8, Windows-1252 fallback). Never rejects on malformed
 * HTML: the parser is lenient, as browsers are.
 */
export class HtmlConverter implements Converter {
  readonly name = 'html';
  readonly mimeTypes: readonly string[] = ['text/html', 'application/xhtml+xml'];
  readonly outputMimeType = 'text/markdown';
  /** turndown parses arbitrary markup (deep nesting, huge tables): run in a conversion process. */
  readonly worker: ConverterWorkerSpec = { module: BUILTIN_CONVERTERS_MODULE, exportName: 'HtmlConverter' };

  async convert(input: ConverterInput): Promise<ConvertedContent> {
    const { htmlToMarkdown } = await import('./html-to-markdown.js'); // with turndown, on first use
    return { kind: 'text', text: htmlToMarkdown(decodeText(input.bytes)), mimeType: 'text/markdown' };
  }
}
