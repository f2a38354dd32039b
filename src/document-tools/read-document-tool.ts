import { z } from 'zod';
import type { DocumentStoreView } from '../documents/document-store.js';
import type { TextRange } from '../documents/text-range.js';
import { DocumentNotFoundError, UserError } from '../errors.js';
import { defineTool, type Tool } from '../registry/tool.js';
import type { ToolReturn } from '../registry/tool-result.js';

/** Arguments of `read_document`. */
export interface ReadDocumentArgs {
  uri: string;
  page?: number;
  offset?: number;
  length?: number;
}

const number = (value: number) => value.toLocaleString('en-US');

/** The line telling the caller which part it got and how to get the rest (and the per-call cap when it cut). */
function describeRange(range: TextRange, cappedAt: number | undefined): string {
  const end = range.offset + range.length;
  const scope =
    range.scope === 'page'
      ? `page ${range.page} of ${range.totalPages}`
      : `the document (${number(range.totalChars)} characters)`;
  const parts = [
    `Returned characters ${number(range.offset)}-${number(end)} of ${number(range.scopeChars)} of ${scope}.`,
  ];
  if (range.scope === 'document' && range.page !== undefined)
    parts.push(`It starts on page ${range.page} of ${range.totalPages}.`);
  if (cappedAt !== undefined)
    parts.push(`At most ${number(cappedAt)} characters are returned per call (the server's read limit).`);
  if (range.remainingChars > 0) {
    parts.push(
      `${number(range.remainingChars)} characters remain: call read_document again with offset=${end}${range.scope === 'page' ? ` and page=${range.page}` : ''}.`,
    );
  } else if (
    range.scope === 'page' &&
    range.page !== undefined &&
    range.totalPages !== undefined &&
    range.page < range.totalPages
  ) {
    parts.push(
      `End of the page; ${range.totalPages - range.page} more page(s): call read_document with page=${range.page + 1}.`,
    );
  } else {
    parts.push(range.scope === 'page' ? 'This is the last page.' : 'This is the end of the document.');
  }
  return parts.join(' ');
}

/**
 * `read_document({ uri, page?, offset?, length? })`: a document's content. Without a range, the whole
 * converted content (text, or an embedded blob resource) when it fits the store's `maxReadChars`; a longer
 * text is served like a range from 0, never more than `maxReadChars` characters per call. With `page` (converted PDFs) and/or
 * `offset`/`length` (characters), the selected part, preceded by a line saying which part it is and
 * how to continue, and the same facts as `structuredContent`. An impossible range is an `isError`
 * result saying what is valid.
 */
export function createReadDocumentTool(documents: DocumentStoreView): Tool<ReadDocumentArgs> {
  // The schemas are built here, not at import: a server without document tools never builds them (bench W0).
  // Strict (additionalProperties: false) so that strict function-calling clients accept it as listed.
  const inputSchema = z.strictObject({
    uri: z.string().min(1).describe('Document URI or name, as listed by list_documents or search_documents'),
    page: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Converted PDFs only: return just this page (from 1). offset/length then count within the page.'),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('First character to return (default 0). Use the nextOffset of a previous call to continue.'),
    length: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Maximum number of characters to return (default and most: the server's read limit)."),
  });
  return defineTool<ReadDocumentArgs>({
    name: 'read_document',
    title: 'Read a document',
    description:
      'Returns the content of one document. Pass a uri (or name) from list_documents. For long documents, ' +
      'read part of it: page (converted PDFs, whose text has "--- page N ---" lines) and/or offset/length in characters.',
    inputSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
    execute: async ({ uri, page, offset, length }, context): Promise<ToolReturn> => {
      const entry = documents.get(uri) ?? documents.list().find((doc) => doc.name === uri);
      if (!entry) throw new UserError(`No document "${uri}". Call list_documents to see the available documents.`);
      let contents;
      try {
        contents = await documents.readFull(entry.uri, { signal: context.signal }); // a call that ended converts nothing
      } catch (error) {
        if (error instanceof DocumentNotFoundError) throw new UserError(`Document "${uri}" no longer exists on disk.`);
        throw error;
      }
      const [item] = contents;
      const max = documents.maxReadChars;
      const long = item !== undefined && 'text' in item && item.text.length > max;
      const ranged = page !== undefined || offset !== undefined || length !== undefined || long;
      if (!ranged) {
        return contents.map((part) =>
          'text' in part ? { type: 'text' as const, text: part.text } : { type: 'resource' as const, resource: part },
        );
      }
      if (item === undefined || !('text' in item)) {
        throw new UserError(
          `Document "${entry.name}" is binary (${item?.mimeType ?? 'no content'}): page, offset and length apply to text documents only. Read it without them.`,
        );
      }
      const cappedAt = length === undefined || length > max ? max : undefined;
      const { selectTextRange } = await import('../documents/text-range.js'); // loaded by the first ranged read
      const outcome = selectTextRange(item.text, { page, offset, length: Math.min(length ?? max, max) });
      if (!outcome.ok) throw new UserError(`Cannot read that part of "${entry.name}": ${outcome.message}`);
      const { text, ...range } = outcome.range;
      const end = range.offset + range.length;
      return {
        content: [
          {
            type: 'text',
            text: describeRange(outcome.range, outcome.range.remainingChars > 0 ? cappedAt : undefined),
          },
          { type: 'text', text },
        ],
        structuredContent: {
          uri: entry.uri,
          mimeType: item.mimeType,
          ...range,
          ...(range.remainingChars > 0 ? { nextOffset: end } : {}),
        },
      };
    },
  });
}
