import { Server, type ServerCapabilities } from '@modelcontextprotocol/server';
import type { DocumentStore } from '../documents/document-store.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import { installResourceHandlers } from './resource-handlers.js';
import type { ServerInfo } from './server-info.js';
import { installToolHandlers } from './tool-handlers.js';

/** What a view is built from: the shared model owned by `BaseMcpServer`. */
export interface ViewModel {
  readonly serverInfo: ServerInfo;
  readonly registry: ToolRegistry;
  readonly documents: DocumentStore;
  /** Server instructions followed by every tool package's instructions, or undefined. */
  instructions(): string | undefined;
  onError(error: unknown): void;
}

/**
 * Capabilities every view declares up front, even with an empty registry, so that a
 * later registration or toggle never needs a capability change (MCP lifecycle:
 * capabilities are fixed at initialization).
 */
export const VIEW_CAPABILITIES: ServerCapabilities = Object.freeze({
  tools: { listChanged: true },
  resources: { listChanged: true },
  prompts: { listChanged: true },
  logging: {},
});

/**
 * Materializes one SDK server (a *view*) from the model. The view holds no copy of
 * the tools or documents: its handlers read the shared model on each request, so a
 * view costs the same whether 1 or 1,000 tools are registered, and every change to
 * the model is seen by every view at once.
 */
export function createView(model: ViewModel): Server {
  const { instructions: _ignored, ...implementation } = model.serverInfo;
  const server = new Server(implementation, {
    capabilities: VIEW_CAPABILITIES,
    instructions: model.instructions(),
  });
  server.onerror = (error) => model.onError(error);
  installToolHandlers(server, model.registry);
  installResourceHandlers(server, model.documents);
  server.setRequestHandler('prompts/list', () => ({ prompts: [] }));
  return server;
}
