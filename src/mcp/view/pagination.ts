import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** Default page size of paginated lists (`resources/list`), in entries. */
export const DEFAULT_PAGE_SIZE = 1000;

/**
 * One page of `items` for an MCP paginated request (spec "Utilities / Pagination"): the
 * cursor is opaque to clients (base64url of the next offset); `nextCursor` is present
 * only when more entries follow. Offsets are positions in the current list, so a list
 * that changes between pages may shift by the change (clients are told by `list_changed`).
 *
 * @throws ProtocolError -32602 when `cursor` was not issued by this server.
 */
export function paginate<T>(items: readonly T[], cursor: string | undefined, pageSize = DEFAULT_PAGE_SIZE) {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  const page = items.slice(offset, offset + pageSize);
  const next = offset + page.length;
  return { page, ...(next < items.length && { nextCursor: encodeCursor(next) }) };
}

function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor "${cursor}".`);
  return Number(match[1]);
}
