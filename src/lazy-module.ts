import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS dependency loaded on first use instead of at import, so that a server pays only for
 * what it uses (a stdio server never loads the HTTP stack; a server without documents never loads
 * the MIME database). `require` is synchronous, so call sites stay synchronous. Only for CommonJS
 * packages (and ESM ones without top-level await); ESM-only packages use `import()` at the call site.
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
