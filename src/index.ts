/**
 * mcp-toolkit public API. Every symbol is exported by name; nothing else is public. Registries
 * are exported as read-only view types only (`server.tools`, `prompts`, `resources`,
 * `documents`): the server's methods are the one way to change them. Test helpers live in
 * `mcp-toolkit/testing`.
 */
export {
  ToolkitError,
  DuplicateToolError,
  InvalidToolError,
  UserError,
  InvalidPathError,
  DocumentNotFoundError,
  ResourceNotFoundError,
  DocumentReadError,
  ConversionLimitError,
  type ConversionLimit,
  ServerStateError,
  ToolCallAbortedError,
  InputUnavailableError,
  ToolStateError,
  type ToolAbortReason,
  type ToolkitErrorCode,
} from './errors.js';
export { createDefaultLogger, type Logger } from './logger.js';

export {
  Tool,
  defineTool,
  type ToolDefinition,
  type ToolSpec,
  type TypedToolSpec,
  type ToolOutput,
} from './registry/tool.js';
export { ToolPackage, type ToolPackageOptions } from './registry/tool-package.js';
export type { ToolRegistryView, ToolState, RegistryChange } from './registry/tool-registry.js';
export type { ToolHandle, ToolHandleState } from './mcp/server/tool-handle.js';
export type { ToolContext, ToolLogger, ToolProgress, ElicitOptions } from './registry/tool-context.js';
export {
  imageContent,
  audioContent,
  resourceLink,
  embeddedResource,
  type MediaSource,
  type MediaOptions,
} from './registry/content.js';
export {
  fromLlmChatTool,
  llmChatEntriesToResult,
  type FromLlmChatToolOptions,
  type LlmChatToolLike,
  type LlmChatToolEntry,
  type LlmChatToolShape,
} from './registry/llm-chat-adapter.js';
export { toRegistrable, type RegistrableTool, type LlmChatToolPackageShape } from './registry/registrable.js';
export type { ToolReturn } from './registry/tool-result.js';
export type { ToolSchema, JsonSchemaObject } from './registry/schema.js';

export { BaseMcpServer, type BaseMcpServerOptions } from './mcp/mcp-server.js';
export type {
  SessionToolsFactory,
  SessionToolsContext,
  SessionToolSet,
  SessionToolSetFactory,
} from './mcp/server/session-tools.js';
export type { McpServerObserver, ToolCallInfo, ResourceReadInfo } from './mcp/server/observer.js';
export type { ToolStateStore, ToolStateSnapshot } from './state/tool-state-store.js';
export { MemoryToolStateStore } from './state/memory-tool-state-store.js';
export { FileToolStateStore } from './state/file-tool-state-store.js';
export { adminRouter } from './admin/admin-router.js';
export type { AdminRouterOptions, AdminAuthenticate, AdminServer } from './admin/admin-options.js';
export type { AdminErrorCode } from './admin/admin-errors.js';
export type { ToolCallStatistics, TimelinePoint } from './admin/tool-call-stats.js';
export type { ServerInfo } from './mcp/server/server-info.js';
export { StdioMcpServer, type StdioMcpServerOptions } from './mcp/stdio-server.js';
export type { ServerEvents, ServerEventMap, SessionInfo, SessionCloseReason } from './mcp/server/server-events.js';

export {
  DocumentStore,
  type DocumentStoreView,
  type DocumentResource,
  type DocumentReadContents,
} from './documents/document-store.js';
export type { FileDocumentConfig, FolderDocumentConfig } from './documents/document-config.js';
export { ConverterRegistry, createDefaultConverters } from './converters/converter-registry.js';
export type { Converter, ConverterInput, ConvertedContent, ConverterWorkerSpec } from './converters/converter.js';
export { ConversionPool, type ConversionPoolOptions } from './converters/pool/conversion-pool.js';
export { RANGE_META_KEY, type ReadRangeMeta } from './documents/read-window.js';

export { createDocumentTools } from './document-tools/document-tools.js';
export type { DocumentToolsOptions } from './document-tools/document-tools.js';
export type { DocumentStoreOptions, DocumentChangeEvent, DocumentChangeListener } from './documents/document-store.js';
export {
  DocumentSearchIndex,
  type DocumentSearchIndexOptions,
  type DocumentSearchOptions,
  type DocumentSearchHit,
  type DocumentSearchResults,
} from './documents/search-index.js';
export {
  selectTextRange,
  type TextRange,
  type TextRangeRequest,
  type TextRangeOutcome,
} from './documents/text-range.js';

export { HttpMcpServer, type HttpServerAddress } from './mcp/http-server.js';
export type { HttpMcpServerOptions, AuthenticateHook } from './mcp/transports/http/options.js';
export type { HttpSessionEvent, HttpSessionInfo, SessionLimitPolicy } from './mcp/transports/http/session-map.js';
export type { ReadinessReport } from './mcp/transports/http/health.js';
export { AuthenticationError } from './errors.js';

export { DuplicatePromptError, InvalidPromptError, DuplicateResourceError, InvalidResourceError } from './errors.js';
export type { RequestContext } from './request-context.js';
export {
  completeFromList,
  MAX_COMPLETION_VALUES,
  type CompleteFunction,
  type CompletionContext,
  type CompletionSuggestions,
} from './completions/completion.js';
export { Prompt, definePrompt, type PromptDefinition, type PromptSpec, type PromptContext } from './prompts/prompt.js';
export type { PromptArgumentSpec, PromptArgumentsInput } from './prompts/prompt-arguments.js';
export type { PromptReturn } from './prompts/prompt-result.js';
export type { PromptRegistryView, PromptRegistryChange } from './prompts/prompt-registry.js';
export type { ResourceConfig, ResourceMetadata, ResourceContext, RegisteredResource } from './resources/resource.js';
export type {
  ResourceTemplateConfig,
  RegisteredResourceTemplate,
  TemplateVariables,
} from './resources/resource-template.js';
export type { ResourceReadReturn, ResourceContentsInput, ResourceContents } from './resources/resource-contents.js';
export type { ResourceRegistryView, ResourceRegistryChange } from './resources/resource-registry.js';

export { createCluster, type ClusterOptions, type RedisCluster } from './cluster/create-cluster.js';
export { RedisToolStateStore } from './cluster/redis-tool-state-store.js';
export { RedisChangeBus } from './cluster/redis-change-bus.js';
export { RedisSessionDirectory } from './cluster/redis-session-directory.js';
export { RedisTaskStore } from './cluster/redis-task-store.js';
export { RedisLink, type RedisClient } from './cluster/redis-link.js';
export { ClusterUnavailableError } from './errors.js';
export type { ClusterMembership } from './state/cluster-membership.js';
export type { ChangeBus, ClusterChange } from './state/change-bus.js';
export type { SessionDirectory, ClusterSessionInfo } from './state/session-directory.js';

// MCP tasks (both wire forms; docs/tasks.md).
export { TaskError } from './errors.js';
export type { TaskSupport } from './registry/tool.js';
export type { TaskOptions } from './mcp/server/server-tasks.js';
export type { TaskEventInfo } from './mcp/server/server-events.js';
export { MemoryTaskStore } from './tasks/memory-task-store.js';
export {
  TaskManager,
  type TaskStart,
  type RunningTask,
  type TaskInputRequest,
  type PendingInput,
  type TaskChangeListener,
} from './tasks/task-manager.js';
export { resolveTaskPolicy, type TaskPolicy, type ResolvedTaskPolicy } from './tasks/task-policy.js';
export {
  isTerminalTaskStatus,
  type TaskStore,
  type TaskRecord,
  type NewTaskRecord,
  type TaskStatus,
  type TaskStatusUpdate,
  type TaskOutcome,
  type TaskPage,
  type TaskStoreEvent,
  type TaskErrorObject,
} from './tasks/task-store.js';
export { contentDocumentUri, type ContentDocumentConfig } from './resources/content-document.js';
