import path from 'node:path';
import type { FileDocumentConfig, FolderDocumentConfig } from '../../documents/document-config.js';
import type { DocumentResource, SkippedDocument } from '../../documents/document-store.js';
import { folderTemplate } from '../../documents/folder-template.js';
import type { DocumentRegistrar, DocumentRegistrationParts } from './document-support.js';

/**
 * The facade's `registerDocument` / `registerFolder`: store the files, emit `documentRegistered`,
 * and expose each folder root once as a `file:///<root>/{+path}` resource template.
 */
export class DocumentRegistration implements DocumentRegistrar {
  /** Folder roots already exposed through a resource template. */
  readonly #folderTemplates = new Set<string>();

  constructor(private readonly parts: DocumentRegistrationParts) {
    // A file a folder scan leaves out for its size is named once in the log, never dropped silently.
    const leftOut = (file: SkippedDocument) =>
      parts.logger.warn(
        { file: file.path, size: file.size, maxFileSizeBytes: file.maxFileSizeBytes },
        `left out ${file.name}: ${file.size} bytes, over the ${file.maxFileSizeBytes}-byte file size limit (maxFileSizeBytes)`,
      );
    for (const file of parts.store.skipped()) leftOut(file);
    parts.store.onSkip(leftOut);
  }

  /** See `BaseMcpServer.registerDocument`. */
  document(pathOrConfig: string | FileDocumentConfig): DocumentResource {
    const document = this.parts.store.registerDocument(pathOrConfig);
    this.parts.events.safeEmit('documentRegistered', { document });
    return document;
  }

  /** See `BaseMcpServer.registerFolder`. */
  folder(pathOrConfig: string | FolderDocumentConfig): DocumentResource[] {
    const { store, uris, resources, events } = this.parts;
    const root = path.resolve(String((typeof pathOrConfig === 'string' ? pathOrConfig : pathOrConfig?.path) ?? '')); // the store's key
    const template = this.#folderTemplates.has(root) ? undefined : folderTemplate(root, store);
    if (template) uris.assertTemplateFree(template.uriTemplate); // before anything is registered
    const documents = store.registerFolder(pathOrConfig);
    for (const document of documents) events.safeEmit('documentRegistered', { document });
    if (template) {
      this.#folderTemplates.add(root);
      resources.registerTemplate(template);
    }
    return documents;
  }
}
