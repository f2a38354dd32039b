/**
 * Converters: file bytes -> MCP resource contents, chosen by MIME type and extension.
 */
export type { ConvertedContent, Converter, ConverterInput, ConverterWorkerSpec } from './converter.js';
export {
  ConversionPool,
  DEFAULT_CONVERSION_HEAP_MB,
  DEFAULT_CONVERSION_TIMEOUT_MS,
  DEFAULT_MAX_INFLATED_BYTES,
  DEFAULT_MAX_OUTPUT_CHARS,
  type ConversionPoolOptions,
} from './pool/conversion-pool.js';
export { ConverterRegistry, createDefaultConverters } from './converter-registry.js';
export {
  detectMimeType,
  essenceOf,
  extensionOf,
  isTextMimeType,
  looksLikeText,
  mimeTypeFromExtension,
  mimeTypeFromPath,
  sniffMimeType,
} from './mime.js';
export { TextConverter, decodeText } from './text-converter.js';
export { PdfConverter, pdfPageHeader } from './pdf-converter.js';
export { HtmlConverter } from './html-converter.js';
export { htmlToMarkdown } from './html-to-markdown.js';
export { DocxConverter, DOCX_MIME_TYPE } from './docx-converter.js';
export { BinaryConverter } from './binary-converter.js';
