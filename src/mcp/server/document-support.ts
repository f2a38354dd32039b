import type { FileDocumentConfig, FolderDocumentConfig } from '../../documents/document-config.js';
import type { DocumentResource, DocumentStore, DocumentStoreView } from '../../documents/document-store.js';
import { UnsupportedFeatureError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ResourceRegistry } from '../../resources/resource-registry.js';
import type { ServerEvents } from './server-events.js';
import type { UriResolver } from './uri-resolver.js';

/**
 * What the server core uses of a document store (type only: the core never imports the store, whose
 * file system, watcher and converters are Node-only). A `DocumentStore` is one; so is the empty store of
 * a server without Node's file system (`mcp-toolkit/fetch`).
 */
export type DocumentBackend = DocumentStoreView &
  Pick<DocumentStore, 'addUriGuard' | 'close' | 'registerDocument' | 'registerFolder'>;

/** What registering documents touches: the store, the URI checks, the templates and the events. */
export interface DocumentRegistrationParts {
  readonly store: DocumentBackend;
  readonly uris: UriResolver;
  readonly resources: ResourceRegistry;
  readonly events: ServerEvents;
  readonly logger: Logger;
}

/** The facade's `registerDocument` / `registerFolder`. */
export interface DocumentRegistrar {
  document(pathOrConfig: string | FileDocumentConfig): DocumentResource;
  folder(pathOrConfig: string | FolderDocumentConfig): DocumentResource[];
}

/** The Node-side document implementation, installed by `node-documents.ts` (imported by the root entry and the Node servers). */
export interface DocumentSupport {
  createStore(): DocumentBackend;
  createRegistrar(parts: DocumentRegistrationParts): DocumentRegistrar;
}

let installed: DocumentSupport | undefined;
/** Server classes that never offer documents, whatever is installed (`FetchMcpServer`). */
const withoutDocuments = new Set<abstract new (...args: never[]) => object>();

/** Marks a server class (and its subclasses) as offering no documents, even where Node's are installed. */
export function offerNoDocuments(serverClass: abstract new (...args: never[]) => object): void {
  withoutDocuments.add(serverClass);
}

/** The support that applies to `owner`: none for a class marked by {@link offerNoDocuments}. */
function supportFor(owner: object): DocumentSupport | undefined {
  for (const serverClass of withoutDocuments) if (owner instanceof serverClass) return undefined;
  return installed;
}

/** Installs the Node-side document store and registration (once, from `node-documents.ts`). */
export function installDocumentSupport(support: DocumentSupport): void {
  installed = support;
}

function unsupported(feature: string): never {
  throw new UnsupportedFeatureError(
    feature,
    `${feature} is not available here: documents and folders need Node's file system, and this server was ` +
      `made from mcp-toolkit/fetch (Bun, Deno, Cloudflare Workers). Serve in-memory content with ` +
      `registerResource() or registerContentDocument(), or use HttpMcpServer / StdioMcpServer from "mcp-toolkit" on Node.`,
  );
}

/** The store of a server without document support: always empty; registering throws {@link UnsupportedFeatureError}. */
function emptyStore(): DocumentBackend {
  const none = () => () => {};
  return {
    converters: undefined as unknown as DocumentStore['converters'],
    maxFileSizeBytes: 0,
    maxReadChars: 0,
    list: () => [],
    folderRoots: () => [],
    get: () => undefined,
    read: (uri) => Promise.reject(new Error(`no document has the URI ${uri}`)),
    readFull: (uri) => Promise.reject(new Error(`no document has the URI ${uri}`)),
    onChange: none,
    onSkip: none,
    addUriGuard: none,
    watchReady: () => Promise.resolve(),
    skipped: () => [],
    close: () => Promise.resolve(),
    registerDocument: () => unsupported('registerDocument()'),
    registerFolder: () => unsupported('registerFolder()'),
  };
}

/** A new document store for the server `owner`: the Node one when installed (and offered), else the empty one. */
export function createDocumentStore(owner: object): DocumentBackend {
  return supportFor(owner)?.createStore() ?? emptyStore();
}

/** The registration for the server `owner`'s parts: the Node one when installed, else one that throws {@link UnsupportedFeatureError}. */
export function createDocumentRegistrar(owner: object, parts: DocumentRegistrationParts): DocumentRegistrar {
  const support = supportFor(owner);
  if (support) return support.createRegistrar(parts);
  return { document: () => unsupported('registerDocument()'), folder: () => unsupported('registerFolder()') };
}
