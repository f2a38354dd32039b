import type { DocumentStoreView } from '../documents/document-store.js';
import type { DocumentSearchIndex } from '../documents/search-index.js';
import { backgroundLoadOnce } from '../lazy-module.js';

/**
 * The index `search_documents` uses when none is given: a `DocumentSearchIndex` made on the first search,
 * so that `createDocumentTools` stays synchronous and a server that never searches never loads the index
 * code (bench W0). With `background` it is made at once, as soon as its module has loaded (after the event
 * loop has polled for I/O, so that a waiting client's first message is answered first: {@link backgroundLoadOnce});
 * a store closed before then gets no background work, as a running index stops its own when the store closes.
 */
export function defaultSearchIndex(
  documents: DocumentStoreView,
  background: boolean,
): Pick<DocumentSearchIndex, 'search'> {
  let closed = false;
  const unsubscribe = background ? documents.onChange(() => {}, { onClose: () => (closed = true) }) : undefined;
  const load = backgroundLoadOnce(() =>
    import('../documents/search-index.js').then(({ DocumentSearchIndex }) => {
      unsubscribe?.();
      return new DocumentSearchIndex(documents, { background: background && !closed });
    }),
  );
  if (background) load().catch(() => undefined); // a failed load is the first search's to report
  return { search: async (query, options) => (await load()).search(query, options) };
}
