/**
 * The result limits of a document search, apart from the index: the `search_documents` tool's schema
 * states them, and building that schema must not load the index (bench W0).
 */

/** Default number of results of one search. */
export const DEFAULT_SEARCH_LIMIT = 10;
/** Most results of one search. */
export const MAX_SEARCH_LIMIT = 50;
