import { base64UrlToText, textToBase64Url } from '../../bytes.js';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** Default page size of paginated lists (`resources/list`), in entries. */
export const DEFAULT_PAGE_SIZE = 1000;

/**
 * One page of `items` for an MCP paginated request (spec "Utilities / Pagination"): the
 * cursor is opaque to clients (base64url of the next offset); `nextCursor` is present
 * only when more entries follow. Offsets are positions in the current list, so a list
 * that changes between pages may shift by the change (clients are told by `list_changed`).
 * Every paginated method (`tools/list`, `prompts/list`, `resources/list`,
 * `resources/templates/list`) goes through here, so each checks its cursor the same way.
 * A first page holding the whole list is `items` itself (no copy: a cached list keeps its
 * identity).
 *
 * @param pageSize - entries per page; `Infinity` serves the whole list as one page.
 * @throws ProtocolError -32602 when `cursor` was not issued by this server.
 */
export function paginate<T>(
  items: readonly T[],
  cursor: string | undefined,
  pageSize = DEFAULT_PAGE_SIZE,
): { page: readonly T[]; nextCursor?: string } {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  if (offset === 0 && items.length <= pageSize) return { page: items };
  const page = items.slice(offset, offset + pageSize);
  const next = offset + page.length;
  return { page, ...(next < items.length && { nextCursor: encodeCursor(next) }) };
}

function encodeCursor(offset: number): string {
  return textToBase64Url(`o:${offset}`);
}

function decodeCursor(cursor: unknown): number {
  if (typeof cursor !== 'string')
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor: not a string.');
  const match = /^o:(\d{1,9})$/.exec(base64UrlToText(cursor));
  if (!match)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid cursor "${cursor.slice(0, 100)}": pass a nextCursor this server returned, or none for the first page.`,
    );
  return Number(match[1]);
}
