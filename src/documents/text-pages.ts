/**
 * Page structure of converted text. The PDF converter opens every page with a line `--- page N ---`
 * (`pdfPageHeader`); text that starts with `--- page 1 ---` is treated as paged.
 */

/** A header line as written by the PDF converter. */
const PAGE_HEADER = /^--- page (\d+) ---$/gm;

/** One page of a paged text, as character offsets into the whole text. */
export interface TextPage {
  /** Page number (from 1), as written in its header line. */
  number: number;
  /** Offset of the header line. */
  start: number;
  /** Offset of the page's own text (just after the header line and its line break). */
  bodyStart: number;
  /** Offset just past the page's text (the blank line before the next header is not part of it). */
  end: number;
}

/**
 * The pages of `text`, in order, or `undefined` when the text is not paged (it does not start with a
 * `--- page 1 ---` line). Only header lines at the start of a line count.
 */
export function splitPages(text: string): TextPage[] | undefined {
  if (!text.startsWith('--- page 1 ---')) return undefined;
  const headers = [...text.matchAll(PAGE_HEADER)];
  const pages: TextPage[] = [];
  headers.forEach((match, index) => {
    const start = match.index;
    const lineEnd = start + match[0].length;
    const bodyStart = text.startsWith('\r\n', lineEnd) ? lineEnd + 2 : text[lineEnd] === '\n' ? lineEnd + 1 : lineEnd;
    const next = headers[index + 1]?.index ?? text.length;
    let end = next;
    while (end > bodyStart && /\s/.test(text[end - 1] ?? '')) end -= 1;
    pages.push({ number: Number(match[1]), start, bodyStart, end });
  });
  return pages;
}

/** The page containing character `offset` (the last page starting at or before it), or `undefined`. */
export function pageAt(pages: readonly TextPage[], offset: number): TextPage | undefined {
  let low = 0;
  let high = pages.length - 1;
  let found: TextPage | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const page = pages[middle];
    if (page === undefined) break;
    if (page.start <= offset) {
      found = page;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}
