import { z } from 'zod';
import type { DocumentSearchIndex, DocumentSearchResults } from '../documents/search-index.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../documents/search-limits.js';
import { UserError } from '../errors.js';
import { defineTool, type Tool } from '../registry/tool.js';

/** Arguments of `search_documents`. */
export interface SearchDocumentsArgs {
  query: string;
  limit?: number;
}

/** The results as text for the model: one numbered entry per document with its URI, page and snippet. */
function formatResults(results: DocumentSearchResults): string {
  const { query, hits, totalMatches, indexedDocuments, unreadableDocuments, pendingDocuments } = results;
  const unreadable = unreadableDocuments > 0 ? `; ${unreadableDocuments} could not be read and were not searched` : '';
  const pending =
    pendingDocuments > 0
      ? `; ${pendingDocuments} more are still being indexed and were not searched: search again shortly for them`
      : '';
  const searched = `searched ${indexedDocuments} document(s)${unreadable}${pending}`;
  if (hits.length === 0) return `No document matches "${query}" (${searched}).`;
  const shown = hits.length < totalMatches ? `, showing the best ${hits.length}` : '';
  const lines = [`${totalMatches} document(s) match "${query}"${shown} (${searched}):`];
  hits.forEach((hit, index) => {
    const where = hit.page === undefined ? '' : `, page ${hit.page}`;
    const others = (hit.pages?.length ?? 0) > 1 ? ` (matches on pages ${hit.pages?.join(', ')})` : '';
    lines.push(`${index + 1}. ${hit.name}${where}${others}, score ${hit.score}`, `   ${hit.uri}`, `   ${hit.snippet}`);
  });
  lines.push('Read a match with read_document (uri, and page for PDFs).');
  return lines.join('\n');
}

/**
 * `search_documents({ query, limit? })`: full-text search over the converted text of the registered
 * documents through `index`. Returns the matches as text and as `structuredContent` (see `outputSchema`).
 * `options.maxWaitMs`: longest wait for the index to catch up (default: until it is current); past it the
 * answer covers what is indexed and says how many documents were not searched yet.
 */
export function createSearchDocumentsTool(
  index: Pick<DocumentSearchIndex, 'search'>,
  options: { maxWaitMs?: number } = {},
): Tool<SearchDocumentsArgs> {
  // The schemas are built here, not at import: a server without document tools never builds them (bench W0).
  // Strict (additionalProperties: false) so that strict function-calling clients accept it as listed.
  const inputSchema = z.strictObject({
    query: z
      .string()
      .min(1)
      .max(1000)
      .describe('Words to look for (case-insensitive; documents matching more words rank higher)'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_LIMIT)
      .optional()
      .describe(`Maximum number of documents to return (default ${DEFAULT_SEARCH_LIMIT})`),
  });

  const hitSchema = z.object({
    uri: z.string(),
    name: z.string(),
    title: z.string().optional(),
    mimeType: z.string(),
    score: z.number(),
    page: z.number().int().optional(),
    pages: z.array(z.number().int()).optional(),
    snippet: z.string(),
    matchedTerms: z.array(z.string()),
  });

  const outputSchema = z.object({
    query: z.string(),
    hits: z.array(hitSchema),
    totalMatches: z.number().int(),
    indexedDocuments: z.number().int(),
    unreadableDocuments: z.number().int(),
    pendingDocuments: z.number().int(),
  });
  return defineTool<SearchDocumentsArgs>({
    name: 'search_documents',
    title: 'Search documents',
    description:
      'Full-text search over the documents this server exposes (PDF, Word, HTML and text files, by their text). ' +
      'Returns the best-matching documents with their URI, a short snippet and, for PDFs, the page.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
    execute: async ({ query, limit }, context) => {
      if (!/[\p{L}\p{N}]/u.test(query)) {
        throw new UserError('The query has no words to search for: pass one or more words, e.g. "invoice total".');
      }
      const results = await index.search(query, { limit, signal: context.signal, maxWaitMs: options.maxWaitMs });
      return {
        content: [{ type: 'text', text: formatResults(results) }],
        structuredContent: { ...results },
      };
    },
  });
}
