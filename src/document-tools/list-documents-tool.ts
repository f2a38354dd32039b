import { z } from 'zod';
import type { DocumentStoreView } from '../documents/document-store.js';
import { UserError } from '../errors.js';
import { defineTool, type Tool } from '../registry/tool.js';

/** Default most documents one `list_documents` call returns: 100. */
export const DEFAULT_LIST_PAGE_SIZE = 100;
/**
 * Most characters of document entries in one `list_documents` page (50,000, about 12,000 tokens): a page
 * of documents with long titles or descriptions ends early rather than flooding the model's context.
 */
export const MAX_LIST_PAGE_CHARS = 50_000;

/** Arguments of `list_documents`. */
export interface ListDocumentsArgs {
  cursor?: string;
  limit?: number;
}

/** One listed document. */
interface ListedDocument {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  size?: number;
}

const number = (value: number) => value.toLocaleString('en-US');

/** The offset a cursor stands for. Cursors are opaque to callers: `p<offset>`. @throws UserError */
function offsetOf(cursor: string | undefined, total: number): number {
  if (cursor === undefined) return 0;
  const match = /^p(\d{1,9})$/.exec(cursor);
  const offset = match ? Number(match[1]) : NaN;
  if (!(offset <= total)) {
    throw new UserError(
      `Unknown cursor "${cursor}": pass the nextCursor of a previous list_documents call, or no cursor for the first page.`,
    );
  }
  return offset;
}

/**
 * `list_documents({ cursor?, limit? })`: the registered documents in pages of at most `pageSize` entries
 * (and {@link MAX_LIST_PAGE_CHARS} characters), in registration order. The text says which part it is,
 * how many there are and how to get the next page (or to use `search_documents`); `structuredContent`
 * is `{ documents, total, offset, nextCursor? }`. Pages are positions in the live list: a document added
 * or removed between calls shifts the later pages by one. An unknown cursor is an `isError` result.
 */
export function createListDocumentsTool(documents: DocumentStoreView, pageSize: number): Tool<ListDocumentsArgs> {
  const inputSchema = z.strictObject({
    cursor: z
      .string()
      .optional()
      .describe('The nextCursor of a previous call, for the next page (omit for the first page)'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(pageSize)
      .optional()
      .describe(`Most documents to return (default and most: ${pageSize})`),
  });
  return defineTool<ListDocumentsArgs>({
    name: 'list_documents',
    title: 'List documents',
    description:
      `Lists the documents this server exposes, with the URI to pass to read_document, ${pageSize} at a time ` +
      '(pass nextCursor for more). To find documents by their content, use search_documents.',
    inputSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
    execute: ({ cursor, limit }) => {
      const all = documents.list();
      const offset = offsetOf(cursor, all.length);
      const wanted = Math.min(limit ?? pageSize, pageSize);
      const page: ListedDocument[] = [];
      const lines: string[] = [];
      let chars = 0;
      for (const { uri, name, title, description, mimeType, size } of all.slice(offset, offset + wanted)) {
        const entry: ListedDocument = { uri, name, title, description, mimeType, size };
        const line = JSON.stringify(entry);
        if (page.length > 0 && chars + line.length > MAX_LIST_PAGE_CHARS) break;
        page.push(entry);
        lines.push(line);
        chars += line.length + 1;
      }
      const end = offset + page.length;
      const nextCursor = end < all.length ? `p${end}` : undefined;
      const head =
        all.length === 0
          ? 'No documents.'
          : page.length === 0
            ? `No documents past ${number(offset)}; there are ${number(all.length)}.`
            : `Documents ${number(offset + 1)}-${number(end)} of ${number(all.length)}.`;
      const next =
        nextCursor === undefined
          ? ''
          : ` ${number(all.length - end)} more: call list_documents with cursor="${nextCursor}", ` +
            'or use search_documents to find documents by their content.';
      return {
        content: [{ type: 'text', text: [head + next, ...lines].join('\n') }],
        structuredContent: { documents: page, total: all.length, offset, ...(nextCursor && { nextCursor }) },
      };
    },
  });
}
