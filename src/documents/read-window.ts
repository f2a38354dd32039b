/**
 * Reads of big documents in pieces. `resources/read` answers at most `maxReadChars` characters of text;
 * a client asks for another piece with an RFC 5147 fragment on the document's URI
 * (`file:///notes/big.pdf#char=100000,200000`), and a cut answer ends with a note naming the next URI
 * (and carries the same facts in `_meta["mcp-toolkit/range"]`).
 */
import { UserError } from '../errors.js';
import type { DocumentReadContents } from './document-types.js';

/** The `_meta` key describing which piece of a text a read returned. */
export const RANGE_META_KEY = 'mcp-toolkit/range';

/** What `_meta["mcp-toolkit/range"]` holds. Offsets count UTF-16 code units (JavaScript string indices). */
export interface ReadRangeMeta {
  offset: number;
  length: number;
  totalChars: number;
  /** The URI of the next piece, absent on the last one. */
  next?: string;
}

/** A requested `#char=start,end` window (RFC 5147 "char" scheme); `undefined` bounds are open. */
interface CharFragment {
  start: number;
  end: number | undefined;
}

/**
 * Splits `uri` into its base and its `char=` fragment. Other fragments are ignored (they are the client's
 * business, RFC 3986 §3.5).
 * @throws UserError for a malformed `char=` fragment
 */
export function parseCharFragment(uri: string): { base: string; window: CharFragment | undefined } {
  const hash = uri.indexOf('#');
  if (hash < 0) return { base: uri, window: undefined };
  const base = uri.slice(0, hash);
  const fragment = uri.slice(hash + 1);
  if (!fragment.startsWith('char=')) return { base, window: undefined };
  const match = /^char=(\d*)(?:,(\d*))?$/.exec(fragment);
  const [, from = '', to] = match ?? [];
  if (match === null || (from === '' && (to === undefined || to === ''))) {
    throw new UserError(
      `Malformed fragment "#${fragment}" in ${uri}: use #char=START,END (character offsets, RFC 5147), e.g. #char=0,100000.`,
    );
  }
  const start = from === '' ? 0 : Number(from);
  const end = to === undefined ? (from === '' ? undefined : start) : to === '' ? undefined : Number(to);
  if (end !== undefined && end < start)
    throw new UserError(`Malformed fragment "#${fragment}" in ${uri}: the end ${end} is before the start ${start}.`);
  return { base, window: { start, end } };
}

const number = (value: number) => value.toLocaleString('en-US');

/** Moves an end that would split a surrogate pair past the pair. */
function safeEnd(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return end < text.length && code >= 0xd800 && code <= 0xdbff ? end + 1 : end;
}

/**
 * Applies a window and the size cap to full read contents: text longer than `maxReadChars` (or a requested
 * `#char=` window) is cut, and a cut answer ends with a note naming the next piece's URI. Blobs pass
 * unchanged (their size is bounded by the file-size limit).
 * @throws UserError when the window starts past the end of the text
 */
export function windowContents(
  contents: DocumentReadContents,
  requestedUri: string,
  maxReadChars: number,
): DocumentReadContents {
  const { base, window } = parseCharFragment(requestedUri);
  return contents.map((item) => {
    if (!('text' in item)) return item;
    const { text } = item;
    if (window === undefined && text.length <= maxReadChars) return item;
    const start = window?.start ?? 0;
    if (start > text.length) {
      throw new UserError(
        `${requestedUri} starts past the end of the text, which has ${number(text.length)} characters: use #char=START,END with START from 0 to ${text.length}.`,
      );
    }
    const wanted = Math.min(window?.end ?? text.length, text.length);
    const end = safeEnd(text, Math.min(wanted, start + maxReadChars));
    const range: ReadRangeMeta = { offset: start, length: end - start, totalChars: text.length };
    let piece = text.slice(start, end);
    if (end < text.length) range.next = `${base}#char=${end},${Math.min(text.length, end + maxReadChars)}`;
    // The note goes only where the limit cut what was asked for; an explicit window is answered exactly.
    if (end < wanted) {
      piece +=
        `\n\n[Showing characters ${number(start)}-${number(end)} of ${number(text.length)}` +
        ` (at most ${number(maxReadChars)} per read). Next part: ${range.next}]`;
    }
    return { ...item, uri: requestedUri, text: piece, _meta: { [RANGE_META_KEY]: range } };
  });
}
