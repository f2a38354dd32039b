/**
 * Documents: local files and folders exposed as MCP resources, read lazily through converters.
 */
export type { FileDocumentConfig, FolderDocumentConfig } from './document-config.js';
export {
  DEFAULT_CACHE_MAX_BYTES,
  DEFAULT_MAX_FILE_SIZE_BYTES,
  DocumentStore,
  type DocumentChangeEvent,
  type DocumentChangeListener,
  type DocumentSkipListener,
  type DocumentReadContents,
  type DocumentResource,
  type DocumentStoreOptions,
  type SkippedDocument,
} from './document-store.js';
