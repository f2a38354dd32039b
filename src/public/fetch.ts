/**
 * `mcp-toolkit/fetch`: MCP as a web-standard fetch handler for Bun, Deno, Cloudflare Workers (workerd,
 * without `nodejs_compat`) and Node behind `@hono/node-server` (docs/runtimes.md). Nothing this entry
 * imports needs Node's built-ins. It repeats the root's runtime values an app needs to build a server
 * (the same objects), so that a Worker never loads the root entry, whose documents and transports are
 * Node-only; types are imported from `mcp-toolkit` as usual (`import type` loads nothing).
 */
export { FetchMcpServer, toFetchHandler } from '../mcp/fetch-server.js';
export type { FetchHandler } from '../mcp/transports/fetch/fetch-handler.js';
export type { FetchHandlerOptions, FetchAuthenticateHook } from '../mcp/transports/fetch/fetch-options.js';
export { UnsupportedFeatureError } from '../errors.js';

// The root's app API, repeated (the same objects; test/architecture/public-surface.test.ts checks it).
export {
  ToolkitError,
  UserError,
  DuplicateToolError,
  InvalidToolError,
  DuplicatePromptError,
  InvalidPromptError,
  DuplicateResourceError,
  InvalidResourceError,
  ResourceNotFoundError,
  ServerStateError,
  ToolCallAbortedError,
  InputUnavailableError,
  AuthenticationError,
  InvalidOptionsError,
} from '../errors.js';
export { createDefaultLogger } from '../logger.js';
export { BaseMcpServer } from '../mcp/mcp-server.js';
export { ServerEvents } from '../mcp/server/server-events.js';
export { Tool, defineTool } from '../registry/tool.js';
export { ToolPackage } from '../registry/tool-package.js';
export { imageContent, audioContent, resourceLink, embeddedResource } from '../registry/content.js';
export { Prompt, definePrompt } from '../prompts/prompt.js';
export { completeFromList, MAX_COMPLETION_VALUES } from '../completions/completion.js';
export { contentDocumentUri } from '../resources/content-document.js';
