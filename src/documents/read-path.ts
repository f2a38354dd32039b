/**
 * What `DocumentStore` loads on its first read, the whole read path in one `import()` (a `dist/lazy/` entry,
 * scripts/bundle.mjs): registering and listing documents never need it, so a server that reads none never
 * compiles it (bench W0).
 */
export { createReadContext, readDocument } from './document-reader.js';
export { parseCharFragment, windowContents } from './read-window.js';
