import { fileURLToPath } from 'node:url';
import { StdioMcpServer } from '../mcp/stdio-server.js';
import { createDocumentTools } from '../tools/document-tools.js';
import { connectHelp } from './connect-help.js';

/** Options of the `serve` command. */
export interface ServeOptions {
  folder: string;
  extensions?: string[];
  quiet?: boolean;
}

/** The CLI's default folder: the package's own `docs/`. */
export function defaultFolder(): string {
  return fileURLToPath(new URL('../../docs', import.meta.url));
}

/**
 * Serves a folder of documents over stdio until stdin closes: every matching file as
 * a resource, plus the `list_documents` / `read_document` tools.
 * @throws InvalidPathError when `folder` is not a directory.
 */
export async function serveStdioFolder(options: ServeOptions, version: string): Promise<StdioMcpServer> {
  const server = new StdioMcpServer({
    name: 'mcp-toolkit-documents',
    title: 'Documents',
    version,
    instructions: `Documents from ${options.folder}, exposed as resources and through the document tools.`,
  });
  const resources = server.registerFolder({ path: options.folder, extensions: options.extensions });
  server.registerTool(createDocumentTools(server.documents));
  await server.start();
  if (!options.quiet) {
    const summary = {
      folder: options.folder,
      toolNames: server.getToolStates().map(({ tool }) => tool.name),
      resourceCount: resources.length,
      transport: 'stdio' as const,
    };
    process.stderr.write(connectHelp(summary, process.argv[1] ?? 'mcp-toolkit'));
  }
  return server;
}
