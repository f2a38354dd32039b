/**
 * Selecting part of a long converted text: one page (paged text, see `text-pages.ts`) and/or a window
 * of characters, with what is needed to tell the reader which part it got and how much remains.
 */
import { pageAt, splitPages } from './text-pages.js';

/** Which part of a text to return. Every field is optional; none means the whole text. */
export interface TextRangeRequest {
  /** Page number from 1; only for paged text (converted PDFs). The window below then applies within the page. */
  page?: number;
  /** First character to return, counted in UTF-16 code units (JavaScript string indices) from the start of the scope. Default 0. */
  offset?: number;
  /** How many characters to return at most. Default: up to the end of the scope. */
  length?: number;
}

/** The selected part and where it sits. Offsets are relative to the scope (the page, or the whole text). */
export interface TextRange {
  text: string;
  /** The page returned (or the page the window starts on, for paged text read without `page`). */
  page?: number;
  /** Number of pages of a paged text. */
  totalPages?: number;
  /** `page` when a page was requested, else `document`. */
  scope: 'page' | 'document';
  /** Start of the returned window within the scope. */
  offset: number;
  /** Characters returned. */
  length: number;
  /** Characters in the scope (the page's text, or the whole text). */
  scopeChars: number;
  /** Characters of the scope after the returned window (0 when it reached the end). */
  remainingChars: number;
  /** Characters in the whole text. */
  totalChars: number;
}

/** Either the selected range or a message saying why the request cannot be served and what to ask instead. */
export type TextRangeOutcome = { ok: true; range: TextRange } | { ok: false; message: string };

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Selects `request` from `text`. A window end that would split a surrogate pair is moved past the pair.
 * Fails (with an actionable message) for a page of a text without pages, a page beyond the last, or an
 * offset beyond the end of the scope (an offset equal to the scope's length is allowed and returns '').
 */
export function selectTextRange(text: string, request: TextRangeRequest): TextRangeOutcome {
  const pages = splitPages(text);
  let scopeText = text;
  let page: number | undefined;
  if (request.page !== undefined) {
    if (pages === undefined) {
      return {
        ok: false,
        message: `This document has no pages (only converted PDFs do): read it without "page", using offset/length (it has ${text.length} characters).`,
      };
    }
    const selected = pages.find((candidate) => candidate.number === request.page);
    if (selected === undefined) {
      return {
        ok: false,
        message: `Page ${request.page} does not exist: this document has ${pages.length} page(s), numbered 1 to ${pages.length}.`,
      };
    }
    scopeText = text.slice(selected.start, selected.end);
    page = selected.number;
  }
  const offset = request.offset ?? 0;
  if (offset > scopeText.length) {
    const where = page === undefined ? 'the document' : `page ${page}`;
    return {
      ok: false,
      message: `Offset ${offset} is past the end of ${where}, which has ${scopeText.length} characters: use an offset from 0 to ${scopeText.length}.`,
    };
  }
  let end = request.length === undefined ? scopeText.length : Math.min(scopeText.length, offset + request.length);
  if (end < scopeText.length && end > offset && isHighSurrogate(scopeText.charCodeAt(end - 1))) end += 1;
  if (page === undefined && pages !== undefined) page = pageAt(pages, offset)?.number;
  return {
    ok: true,
    range: {
      text: scopeText.slice(offset, end),
      ...(page === undefined ? {} : { page }),
      ...(pages === undefined ? {} : { totalPages: pages.length }),
      scope: request.page === undefined ? 'document' : 'page',
      offset,
      length: end - offset,
      scopeChars: scopeText.length,
      remainingChars: scopeText.length - end,
      totalChars: text.length,
    },
  };
}
