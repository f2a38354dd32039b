/**
 * The units the search index adds to MiniSearch: a document's text cut into chunks (pages, or parts of
 * about 50,000 characters), each with an id that names its document's URI and page.
 */
import type { DocumentResource } from './document-types.js';
import { splitPages } from './text-pages.js';

/** One indexed unit: a whole document, or one page of a paged one. */
export interface Chunk {
  id: string;
  uri: string;
  page: number | undefined;
  name: string;
  text: string;
}

/** Unpaged text is indexed in parts of about this many characters, so tokenizing never holds a copy of it all. */
const PART_CHARS = 50_000;

/** The end of the part starting at `start`: the last whitespace before `start + PART_CHARS`, if any. */
function partEnd(text: string, start: number): number {
  const limit = start + PART_CHARS;
  if (limit >= text.length) return text.length;
  const space = text.lastIndexOf(' ', limit);
  const newline = text.lastIndexOf('\n', limit);
  const cut = Math.max(space, newline);
  return cut > start ? cut : limit;
}

/**
 * The URI and page of a chunk id made by {@link toChunks} for a later part or a page: `uri#part=N` or
 * `uri#page=N` (a document's first part has its URI as id: the caller checks that first).
 */
export function chunkOf(id: string): { uri: string; page: number | undefined } {
  const suffix = /#(part|page)=(\d+)$/.exec(id);
  if (suffix === null) return { uri: id, page: undefined };
  return { uri: id.slice(0, suffix.index), page: suffix[1] === 'page' ? Number(suffix[2]) : undefined };
}

/**
 * Splits a document's text into chunks, lazily (one is alive at a time while indexing): one per page for
 * paged text, else parts of about 50,000 characters cut at whitespace. The name is indexed once.
 */
export function* toChunks(resource: DocumentResource, text: string): Generator<Chunk> {
  const { uri, name } = resource;
  const pages = splitPages(text);
  if (pages === undefined) {
    for (let start = 0, part = 0; start < text.length || part === 0; part += 1) {
      const end = partEnd(text, start);
      const id = part === 0 ? uri : `${uri}#part=${part}`;
      yield { id, uri, page: undefined, name: part === 0 ? name : '', text: text.slice(start, end) };
      start = end;
    }
    return;
  }
  for (const [index, page] of pages.entries()) {
    yield {
      id: `${uri}#page=${page.number}`,
      uri,
      page: page.number,
      name: index === 0 ? name : '',
      text: text.slice(page.bodyStart, page.end),
    };
  }
}
