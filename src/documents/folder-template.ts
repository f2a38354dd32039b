import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentStoreView } from './document-store.js';
import { DocumentNotFoundError } from '../errors.js';
import type { ResourceTemplateConfig } from '../resources/resource-template.js';

/**
 * The resource template that exposes a registered folder (issue: "resource templates for
 * folders"): `file:///abs/root/{+path}`, named after the folder, whose `path` variable
 * completes to the folder's registered documents (relative names, case-insensitive
 * prefix). Reads of a matching URI are served by the document store (documents are
 * looked up before templates); a path that is not a registered document of the folder
 * is "not found", so the template never widens what the folder exposes.
 */
export function folderTemplate(root: string, documents: DocumentStoreView): ResourceTemplateConfig {
  const base = pathToFileURL(root).href.replace(/\/$/, '');
  const inRoot = () => documents.list().filter((doc) => doc.root === root);
  return {
    uriTemplate: `${base}/{+path}`,
    name: `${path.basename(root) || root} (folder)`,
    description: `Any document of the folder ${root}, by its path relative to the folder.`,
    complete: {
      path: (value) => {
        const prefix = value.toLowerCase();
        return inRoot()
          .map((doc) => doc.name)
          .filter((name) => name.toLowerCase().startsWith(prefix));
      },
    },
    read: (uri) => {
      throw new DocumentNotFoundError(uri, `Resource not found: ${uri} is not a document of the folder ${root}.`);
    },
  };
}
