/**
 * `mcp-toolkit/documents`: the document pipeline behind `registerDocument` / `registerFolder`
 * (docs/documents.md, docs/converters.md). Build a {@link DocumentStore} with your own converters
 * or limits and pass it as the server's `documents` option; reuse the search index and text
 * ranges in your own document tools. Registering documents needs only the root export.
 */
export {
  DocumentStore,
  type DocumentStoreOptions,
  type DocumentChangeListener,
  type DocumentSkipListener,
  type SkippedDocument,
} from '../documents/document-store.js';
export { ConverterRegistry, createDefaultConverters } from '../converters/converter-registry.js';
export type { Converter, ConverterInput, ConvertedContent, ConverterWorkerSpec } from '../converters/converter.js';
export { ConversionPool, type ConversionPoolOptions } from '../converters/pool/conversion-pool.js';
export type { ConversionLimit } from '../errors.js';
export { RANGE_META_KEY, type ReadRangeMeta } from '../documents/read-window.js';
export {
  DocumentSearchIndex,
  type DocumentSearchIndexOptions,
  type DocumentSearchOptions,
  type DocumentSearchHit,
  type DocumentSearchResults,
} from '../documents/search-index.js';
export {
  selectTextRange,
  type TextRange,
  type TextRangeRequest,
  type TextRangeOutcome,
} from '../documents/text-range.js';
