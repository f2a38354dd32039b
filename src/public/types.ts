/**
 * `mcp-toolkit/types`: secondary types (type-only, no runtime code). Each names a part of a type the
 * root export gives (a member of `ToolContext`, the base of a config, an option of a helper), for
 * code that wraps or extends the toolkit; apps rarely need them.
 */
export type { ToolOutput } from '../registry/tool.js';
export type { ToolLogger, ToolProgress } from '../registry/tool-context.js';
export type { MediaOptions } from '../registry/content.js';
export type { JsonSchemaObject } from '../registry/schema.js';
export type { PromptDefinition } from '../prompts/prompt.js';
export type { PromptArgumentsInput } from '../prompts/prompt-arguments.js';
export type { ResourceInfo } from '../resources/resource.js';
export type { ResourceContentsInput } from '../resources/resource-contents.js';
export type { DocumentReadContents, DocumentChangeEvent } from '../documents/document-store.js';
export type { HttpServerAddress } from '../mcp/http-server.js';
export type { HttpsOptions } from '../mcp/transports/http/options.js';
export type { HttpSessionEvent, HttpSessionInfo, SessionLimitPolicy } from '../mcp/transports/http/session-map.js';
export type { ReadinessReport } from '../mcp/transports/http/health.js';
export type { SessionCloseReason } from '../mcp/server/server-events.js';
export type { HttpRequestInfo, ReadonlyHeaders } from '../registry/request-context.js';
export type {
  Middleware,
  MiddlewareContext,
  MiddlewareHost,
  MiddlewareMethod,
  MiddlewareNext,
  MiddlewareParams,
  MiddlewareResult,
  MiddlewareScope,
} from '../mcp/pipeline/middleware.js';
