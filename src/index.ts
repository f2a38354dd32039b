/**
 * mcp-toolkit: the app API. Servers, tools and packages, prompts, resources, documents, errors and
 * events, each name exported once, by name. Registries are exported as read-only view types only
 * (`server.tools`, `prompts`, `resources`, `documents`): the server's methods are the one way to
 * change them.
 *
 * Infrastructure and extension points live in subpaths (docs/architecture.md, "Public surface"):
 * `mcp-toolkit/tasks` (task stores, the task engine), `mcp-toolkit/state` (tool-state stores),
 * `mcp-toolkit/cluster` (Redis-backed replicas), `mcp-toolkit/admin` (admin router),
 * `mcp-toolkit/documents` (document store, converters, search), `mcp-toolkit/llm-chat`
 * (llm-chat-mcp interop) and `mcp-toolkit/testing` (test helpers).
 *
 * Three names are also exported by `@modelcontextprotocol/server` with another meaning; each is
 * kept because it names the toolkit's own item class or error, as the contract does:
 * `Tool` (ours: the class an app registers; the SDK's: a `tools/list` entry), `Prompt` (ours: the
 * prompt class; the SDK's: a `prompts/list` entry) and `ResourceNotFoundError` (ours: a
 * `ToolkitError` thrown by `readResource()`; the SDK's: the JSON-RPC error a view answers with).
 */
export {
  ToolkitError,
  UserError,
  DuplicateToolError,
  InvalidToolError,
  DuplicatePromptError,
  InvalidPromptError,
  DuplicateResourceError,
  InvalidResourceError,
  InvalidPathError,
  DocumentNotFoundError,
  ResourceNotFoundError,
  DocumentReadError,
  ConversionLimitError,
  ServerStateError,
  ToolCallAbortedError,
  InputUnavailableError,
  AuthenticationError,
  MissingDependencyError,
  InvalidOptionsError,
  type ToolAbortReason,
  type ToolkitErrorCode,
} from './errors.js';
export { createDefaultLogger, type Logger } from './logger.js';
export type { RequestContext } from './registry/request-context.js';

// Servers.
import './mcp/server/node-documents.js'; // a BaseMcpServer made from the root gets the file-system document store
export { BaseMcpServer } from './mcp/mcp-server.js';
export type { BaseMcpServerOptions } from './mcp/server/server-options.js';
export type { ServerInfo } from './mcp/server/server-info.js';
export { StdioMcpServer, type StdioMcpServerOptions } from './mcp/stdio-server.js';
export { HttpMcpServer } from './mcp/http-server.js';
export type { HttpMcpServerOptions, AuthenticateHook } from './mcp/transports/http/options.js';
export type { SessionToolsFactory, SessionToolsContext } from './mcp/server/session-tools.js';

// Events.
export { ServerEvents, type ServerEventMap, type SessionInfo } from './mcp/server/server-events.js';

// Tools and packages.
export { Tool, defineTool, type ToolDefinition, type ToolSpec, type TypedToolSpec } from './registry/tool.js';
export { ToolPackage, type ToolPackageOptions } from './registry/tool-package.js';
export type { ToolRegistryView, ToolState, RegistryChange } from './registry/tool-registry.js';
export type { ToolHandle, ToolHandleState } from './mcp/server/tool-handle.js';
export type { ToolContext, ElicitOptions } from './registry/tool-context.js';
export { imageContent, audioContent, resourceLink, embeddedResource, type MediaSource } from './registry/content.js';
export type { RegistrableTool } from './registry/registrable.js';
export type { ToolReturn } from './registry/tool-result.js';
export type { ToolSchema } from './registry/schema.js';

// Prompts and completion.
export { Prompt, definePrompt, type PromptSpec, type PromptContext } from './prompts/prompt.js';
export type { PromptArgumentSpec } from './prompts/prompt-arguments.js';
export type { PromptReturn } from './prompts/prompt-result.js';
export type { PromptRegistryView, PromptRegistryChange } from './prompts/prompt-registry.js';
export {
  completeFromList,
  MAX_COMPLETION_VALUES,
  type CompleteFunction,
  type CompletionContext,
  type CompletionSuggestions,
} from './completions/completion.js';

// Resources.
export type { ResourceConfig, ResourceContext, ResourceEntry } from './resources/resource.js';
export type {
  ResourceTemplateConfig,
  ResourceTemplateEntry,
  TemplateVariables,
} from './resources/resource-template.js';
export type { ResourceReadReturn, ResourceReadContents } from './resources/resource-contents.js';
export type { ResourceRegistryView, ResourceRegistryChange } from './resources/resource-registry.js';
export { contentDocumentUri, type ContentDocumentConfig } from './resources/content-document.js';

// Documents.
export type { FileDocumentConfig, FolderDocumentConfig } from './documents/document-config.js';
export type { DocumentStoreView, DocumentResource } from './documents/document-store.js';
export { createDocumentTools, type DocumentToolsOptions } from './document-tools/document-tools.js';
