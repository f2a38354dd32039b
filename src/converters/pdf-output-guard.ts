/**
 * Stops a PDF's text extraction once its output passes a character budget, while pdf.js is still
 * producing it: a decompression bomb (a small file whose content stream inflates to hundreds of MiB) is
 * then stopped after a few MiB of text instead of after minutes and gigabytes.
 *
 * pdf-parse extracts a page with `page.getTextContent()`, which waits for the whole page. We hand its
 * (TS-private) `getPageText` a view of the page whose `getTextContent` reads pdf.js's public
 * `streamTextContent()` chunk by chunk, counts characters and cancels the stream over budget. When a
 * pdf-parse release renames that method the guard is skipped: the output is still checked after each page
 * and the pool's time and heap limits still hold.
 */
import { ConversionLimitError } from '../errors.js';

/** The slice of pdf.js's page proxy the guard uses. */
interface StreamingPage {
  streamTextContent(params?: unknown): ReadableStream<{ items: unknown[]; styles: object; lang?: string | null }>;
}

/** What pdf-parse's `getPageText` reads from `getTextContent()`. */
interface TextContent {
  items: unknown[];
  styles: Record<string, unknown>;
  lang: string | null;
}

/** Characters produced so far across the pages of one conversion. */
export interface OutputBudget {
  readonly path: string;
  readonly maxChars: number;
  used: number;
}

type GetPageText = (page: object, params: unknown, total: number) => Promise<string>;

function charsOf(item: unknown): number {
  const str = (item as { str?: unknown }).str;
  return typeof str === 'string' ? str.length : 0;
}

async function boundedTextContent(page: StreamingPage, params: unknown, budget: OutputBudget): Promise<TextContent> {
  const reader = page.streamTextContent(params).getReader();
  const content: TextContent = { items: [], styles: Object.create(null) as Record<string, unknown>, lang: null };
  let pageChars = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      budget.used += pageChars;
      return content;
    }
    content.lang ??= value.lang ?? null;
    Object.assign(content.styles, value.styles);
    for (const item of value.items) {
      content.items.push(item);
      pageChars += charsOf(item);
    }
    if (budget.used + pageChars > budget.maxChars) {
      await reader.cancel(new Error('output limit')).catch(() => undefined);
      throw new ConversionLimitError('output', budget.path, budget.maxChars);
    }
  }
}

/**
 * Installs the guard on one pdf-parse `PDFParse` instance (see the module comment). Returns false when
 * the instance has no `getPageText` to wrap (a pdf-parse release that changed its internals).
 */
export function guardPdfOutput(parser: object, budget: OutputBudget): boolean {
  const internals = parser as { getPageText?: GetPageText };
  const original = internals.getPageText;
  if (typeof original !== 'function') return false;
  internals.getPageText = (page, params, total) => {
    const streaming = page as Partial<StreamingPage>;
    if (typeof streaming.streamTextContent !== 'function') return original.call(parser, page, params, total);
    const guarded = Object.create(page) as { getTextContent: (p: unknown) => Promise<TextContent> };
    guarded.getTextContent = (p) => boundedTextContent(page as StreamingPage, p, budget);
    return original.call(parser, guarded, params, total);
  };
  return true;
}
