import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type Server } from '@modelcontextprotocol/server';
import type { DocumentStore } from '../documents/document-store.js';
import { DocumentNotFoundError, ToolkitError } from '../errors.js';

/**
 * Installs `resources/list`, `resources/read` and `resources/templates/list` on a
 * view, reading the shared document store on every request. Reads are lazy: the
 * file is read (and converted) when a client asks for it.
 *
 * Errors: an unknown URI or a vanished file -> "Resource not found" (the SDK sends it
 * as -32602 on 2026-07-28, per that revision); a too-large file or a failed
 * conversion -> -32603 with a message naming the file and the reason.
 */
export function installResourceHandlers(server: Server, documents: DocumentStore): void {
  server.setRequestHandler('resources/list', () => ({
    resources: documents.list().map(({ uri, name, title, description, mimeType, size }) => ({
      uri,
      name,
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
      mimeType,
      ...(size !== undefined && { size }),
    })),
  }));

  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));

  server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params;
    try {
      return { contents: await documents.read(uri) };
    } catch (error) {
      if (error instanceof DocumentNotFoundError) throw new ResourceNotFoundError(uri, error.message);
      if (error instanceof ToolkitError) throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
      throw error;
    }
  });
}
