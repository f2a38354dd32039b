import type { DocumentStoreView } from '../documents/document-store.js';
import { DocumentSearchIndex } from '../documents/search-index.js';
import { defineTool } from '../registry/tool.js';
import { ToolPackage } from '../registry/tool-package.js';
import { createReadDocumentTool } from './read-document-tool.js';
import { createSearchDocumentsTool } from './search-documents-tool.js';

/** Options of {@link createDocumentTools}. */
export interface DocumentToolsOptions {
  /** The index `search_documents` uses (default: a new `DocumentSearchIndex(documents)`, built on the first search). */
  searchIndex?: DocumentSearchIndex;
}

/**
 * The built-in document tool package, for clients that use tools but not resources:
 * - `list_documents`: every registered document (uri, name, mimeType, size);
 * - `read_document({ uri, page?, offset?, length? })`: the document's content (text, or an embedded blob
 *   resource), or one page / a window of characters of a long text;
 * - `search_documents({ query, limit? })`: full-text search over the documents' converted text, with
 *   ranked matches, snippets and PDF pages.
 * All read the live store, so documents registered later (or added to a watched folder) are included.
 */
export function createDocumentTools(documents: DocumentStoreView, options: DocumentToolsOptions = {}): ToolPackage {
  const listDocuments = defineTool({
    name: 'list_documents',
    title: 'List documents',
    description: 'Lists the documents this server exposes, with the URI to pass to read_document.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    execute: () => {
      const docs = documents.list().map(({ uri, name, title, description, mimeType, size }) => ({
        uri,
        name,
        title,
        description,
        mimeType,
        size,
      }));
      return {
        content: [{ type: 'text', text: JSON.stringify(docs, null, 2) }],
        structuredContent: { documents: docs },
      };
    },
  });
  const searchIndex = options.searchIndex ?? new DocumentSearchIndex(documents);
  return new ToolPackage([listDocuments, createReadDocumentTool(documents), createSearchDocumentsTool(searchIndex)], {
    name: 'documents',
    instructions:
      'Use list_documents to discover documents, search_documents to find passages by words, and read_document ' +
      'to read one (a page or a range of characters for long documents).',
  });
}
