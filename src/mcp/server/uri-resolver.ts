import type { DocumentBackend } from './document-support.js';
import { DuplicateResourceError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ResourceRegistry } from '../../resources/resource-registry.js';
import { normalizeUri } from '../../resources/uri-normalization.js';

/** `node:url` where the runtime has Node's built-ins; reached lazily so this module loads on workerd too. */
function nodeUrl(): typeof import('node:url') | undefined {
  const getBuiltin = (globalThis as { process?: Partial<NodeJS.Process> }).process?.getBuiltinModule;
  return getBuiltin?.('node:url') as typeof import('node:url') | undefined;
}

/** URIs compare in their normal form (`normalizeUri`); `file:` URIs by the file they name (`file:///a%20b` and `file:///a b` are one file). */
function canonical(uri: string): string {
  const normal = normalizeUri(uri); // RFC 3986 section 6.2.2: the form every lookup compares
  if (!normal.startsWith('file:')) return normal;
  const url = nodeUrl();
  if (!url) return normal; // no file system here (workerd): no document can share the URI
  try {
    return url.pathToFileURL(url.fileURLToPath(normal)).href;
  } catch {
    return normal;
  }
}

/**
 * The one owner of resource URI uniqueness across a server's documents, fixed resources and
 * resource templates, whatever the order of registration:
 *
 * - `registerResource(uri)` throws `DuplicateResourceError` when a document or resource has `uri`;
 * - `registerDocument` / `registerFolder` throw it (registering nothing) when a file's URI is a
 *   fixed resource's (through the document store's URI guard);
 * - a file the folder watcher finds later under such a URI is left out and logged once as a
 *   warning: the resource registered first keeps its URI;
 * - `registerResourceTemplate` throws it when the same URI template is registered.
 *
 * Registering the same file again (a document, or a folder containing it) replaces its entry,
 * as before: that is one resource, not two.
 */
export class UriResolver {
  /** Canonical URIs of the fixed resources (kept in step with the registry's changes). */
  readonly #resourceUris = new Set<string>();
  /** Watcher skips already logged, so a rescan does not repeat the warning. */
  readonly #warned = new Set<string>();

  constructor(
    private readonly resources: ResourceRegistry,
    private readonly documents: DocumentBackend,
    logger: Logger,
  ) {
    for (const listed of resources.list()) this.#resourceUris.add(canonical(listed.uri));
    resources.onChange((event) => {
      for (const change of event.batch ?? [event]) {
        if (change.kind !== 'resource') continue;
        if (change.type === 'added') this.#resourceUris.add(canonical(change.uri));
        else this.#resourceUris.delete(canonical(change.uri));
      }
    });
    documents.addUriGuard({
      check: (uri) => (this.#resourceUris.has(canonical(uri)) ? new DuplicateResourceError(uri) : undefined),
      skipped: (uri, error) => {
        if (this.#warned.has(uri)) return;
        this.#warned.add(uri);
        logger.warn({ err: error, uri }, 'file found in a watched folder left out: a resource already has its URI');
      },
    });
  }

  /** Whether a document has `uri` (an upstream's resource with it is left out). */
  documentHas(uri: string): boolean {
    return this.documents.get(uri) !== undefined;
  }

  /** @throws DuplicateResourceError when a document or a fixed resource already has `uri`. */
  assertResourceFree(uri: string): void {
    if (this.#resourceUris.has(canonical(uri)) || this.documents.get(uri)) throw new DuplicateResourceError(uri);
  }

  /** @throws DuplicateResourceError (kind `resource template`) when `uriTemplate` is registered. */
  assertTemplateFree(uriTemplate: string): void {
    if (this.resources.getTemplate(uriTemplate)) throw new DuplicateResourceError(uriTemplate, 'resource template');
  }
}
