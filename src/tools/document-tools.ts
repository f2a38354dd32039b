import { z } from 'zod';
import type { DocumentStore } from '../documents/document-store.js';
import { DocumentNotFoundError, UserError } from '../errors.js';
import { defineTool } from '../registry/tool.js';
import { ToolPackage } from '../registry/tool-package.js';

/**
 * The built-in document tool package, for clients that use tools but not resources:
 * - `list_documents`: every registered document (uri, name, mimeType, size);
 * - `read_document({ uri })`: the document's content (text, or an embedded blob resource).
 * Both read the live store, so documents registered later are included.
 */
export function createDocumentTools(documents: DocumentStore): ToolPackage {
  const listDocuments = defineTool({
    name: 'list_documents',
    title: 'List documents',
    description: 'Lists the documents this server exposes, with the URI to pass to read_document.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    execute: () => {
      const docs = documents.list().map(({ uri, name, title, description, mimeType, size }) => ({
        uri,
        name,
        title,
        description,
        mimeType,
        size,
      }));
      return {
        content: [{ type: 'text', text: JSON.stringify(docs, null, 2) }],
        structuredContent: { documents: docs },
      };
    },
  });

  const readDocument = defineTool<{ uri: string }>({
    name: 'read_document',
    title: 'Read a document',
    description: 'Returns the content of one document. Pass a uri (or name) from list_documents.',
    inputSchema: z.object({ uri: z.string().min(1).describe('Document URI or name, as listed by list_documents') }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    execute: async ({ uri }) => {
      const entry = documents.get(uri) ?? documents.list().find((doc) => doc.name === uri);
      if (!entry) throw new UserError(`No document "${uri}". Call list_documents to see the available documents.`);
      try {
        const contents = await documents.read(entry.uri);
        return contents.map((item) =>
          'text' in item ? { type: 'text' as const, text: item.text } : { type: 'resource' as const, resource: item },
        );
      } catch (error) {
        if (error instanceof DocumentNotFoundError) throw new UserError(`Document "${uri}" no longer exists on disk.`);
        throw error;
      }
    },
  });

  return new ToolPackage([listDocuments, readDocument], {
    name: 'documents',
    instructions: 'Use list_documents to discover documents and read_document to read one.',
  });
}
