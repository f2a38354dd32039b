/**
 * `mcp-toolkit/llm-chat`: interop with `@johannes.latzel/llm-chat` and llm-chat-mcp
 * (docs/migrating-from-llm-chat-mcp.md). `registerTool()` accepts llm-chat tools and packages as
 * they are; import from here to convert them yourself, to type the llm-chat-mcp session-tool
 * factory form, or to use the llm-chat-mcp `McpServerObserver` shape (the server's `observer`
 * option).
 */
export {
  fromLlmChatTool,
  llmChatEntriesToResult,
  type FromLlmChatToolOptions,
  type LlmChatToolLike,
  type LlmChatToolEntry,
  type LlmChatToolShape,
} from '../registry/llm-chat-adapter.js';
export { toRegistrable, type LlmChatToolPackageShape } from '../registry/registrable.js';
export type { SessionToolSet, SessionToolSetFactory } from '../mcp/server/session-tools.js';
export type { McpServerObserver, ToolCallInfo, ResourceReadInfo } from '../mcp/server/observer.js';
