import type { DocumentStoreView } from '../documents/document-store.js';
import { assertKnownOptions, optionKeys } from '../known-options.js';
import {
  BOOLEAN,
  checkOptionsObject,
  checkOptionValues,
  msRule,
  numberRule,
  withMethods,
  type ValueRules,
} from '../option-values.js';
import type { DocumentSearchIndex } from '../documents/search-index.js';
import { ToolPackage } from '../registry/tool-package.js';
import { schemasKnownGood } from '../registry/tool.js';
import { defaultSearchIndex } from './default-search-index.js';
import { createListDocumentsTool, DEFAULT_LIST_PAGE_SIZE } from './list-documents-tool.js';
import { createReadDocumentTool } from './read-document-tool.js';
import { createSearchDocumentsTool } from './search-documents-tool.js';

/** How long `search_documents` waits for a background index by default, in ms. */
export const DEFAULT_BACKGROUND_SEARCH_WAIT_MS = 500;

/** Options of {@link createDocumentTools}. */
export interface DocumentToolsOptions {
  /** The index `search_documents` uses (default: a new `DocumentSearchIndex(documents)`, built on the first search). */
  searchIndex?: DocumentSearchIndex;
  /**
   * Without `searchIndex`: build the default index now, in the background (`DocumentSearchIndex`'s
   * `background` option), and let a `search_documents` call made while it builds answer after at most
   * {@link searchWaitMs} from what is indexed, saying how many documents are still pending. Default `false`.
   */
  indexInBackground?: boolean;
  /**
   * Longest time (ms) a `search_documents` call waits for the index to catch up before it answers from what is
   * indexed (see `pendingDocuments`). Default: 500 with `indexInBackground`, else unlimited (the call waits).
   */
  searchWaitMs?: number;
  /**
   * Most documents one `list_documents` call returns (default 100); the rest come page by page through
   * `nextCursor`. A page also ends before its entries pass 50,000 characters.
   */
  listPageSize?: number;
}

const TOOLS_OPTION_KEYS = optionKeys<DocumentToolsOptions>()([
  'searchIndex',
  'indexInBackground',
  'searchWaitMs',
  'listPageSize',
]);
const TOOLS_OPTION_RULES: ValueRules<DocumentToolsOptions> = {
  searchIndex: withMethods('a DocumentSearchIndex', ['search']),
  indexInBackground: BOOLEAN,
  searchWaitMs: msRule(true),
  listPageSize: numberRule({ min: 1 }),
};

/**
 * The built-in document tool package, for clients that use tools but not resources:
 * - `list_documents({ cursor?, limit? })`: the registered documents (uri, name, mimeType, size), a page of
 *   `listPageSize` (default 100) at a time, with the total and a `nextCursor`;
 * - `read_document({ uri, page?, offset?, length? })`: the document's content (text, or an embedded blob
 *   resource), or one page / a window of characters of a long text;
 * - `search_documents({ query, limit? })`: full-text search over the documents' converted text, with
 *   ranked matches, snippets and PDF pages.
 * All read the live store, so documents registered later (or added to a watched folder) are included.
 * @throws InvalidOptionsError when `options.listPageSize` is below 1, another option has the wrong type, or an option is unknown
 */
export function createDocumentTools(documents: DocumentStoreView, options: DocumentToolsOptions = {}): ToolPackage {
  checkOptionsObject('createDocumentTools', options);
  assertKnownOptions('createDocumentTools option', options, TOOLS_OPTION_KEYS);
  checkOptionValues('createDocumentTools option', options, TOOLS_OPTION_RULES);
  const pageSize = Math.floor(options.listPageSize ?? DEFAULT_LIST_PAGE_SIZE);
  const listDocuments = createListDocumentsTool(documents, pageSize);
  const background = options.indexInBackground === true && options.searchIndex === undefined;
  const searchIndex = options.searchIndex ?? defaultSearchIndex(documents, background);
  const searchWaitMs = options.searchWaitMs ?? (background ? DEFAULT_BACKGROUND_SEARCH_WAIT_MS : undefined);
  const searchDocuments = createSearchDocumentsTool(searchIndex, { maxWaitMs: searchWaitMs });
  // The toolkit's own schemas (test/document-tools/strict-schemas.test.ts): compiled at the first tools/list.
  const tools = [listDocuments, createReadDocumentTool(documents), searchDocuments].map(schemasKnownGood);
  return new ToolPackage(tools, {
    name: 'documents',
    instructions:
      'Use list_documents to discover documents, search_documents to find passages by words, and read_document ' +
      'to read one (a page or a range of characters for long documents).',
  });
}
