import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import { InputUnavailableError, ToolCallAbortedError, ToolkitError, UserError } from '../errors.js';

/**
 * What a tool's `execute()` may return:
 * - a string (sent as one text content block),
 * - one MCP content block (`await imageContent(...)`, `audioContent(...)`, `resourceLink(...)`, ...),
 * - an array of MCP content blocks,
 * - a full `CallToolResult` (`{ content, structuredContent?, isError? }`),
 * - any other JSON value: sent as pretty JSON text, and as `structuredContent` when it is an object.
 */
export type ToolReturn =
  | string
  | ContentBlock
  | ContentBlock[]
  | CallToolResult
  | Record<string, unknown>
  | number
  | boolean
  | null
  | undefined;

function isCallToolResult(value: object): value is CallToolResult {
  return Array.isArray((value as { content?: unknown }).content);
}

const TEXT_BLOCK_KEYS = new Set(['type', 'text', 'annotations', '_meta']);

/**
 * Whether a returned object is one MCP content block (MCP "Tool Result" content types), told by
 * `type` and the fields that type requires. A text block counts only with no other keys, so a
 * structured value that merely has `type` and `text` fields stays structured.
 */
function isContentBlock(value: Record<string, unknown>): value is ContentBlock {
  switch (value.type) {
    case 'image':
    case 'audio':
      return typeof value.data === 'string' && typeof value.mimeType === 'string';
    case 'resource_link':
      return typeof value.uri === 'string' && typeof value.name === 'string';
    case 'resource':
      return typeof value.resource === 'object' && value.resource !== null;
    case 'text':
      return typeof value.text === 'string' && Object.keys(value).every((key) => TEXT_BLOCK_KEYS.has(key));
    default:
      return false;
  }
}

/** Turns any {@link ToolReturn} into a `CallToolResult` (MCP `tools/call` result shape). */
export function toCallToolResult(value: ToolReturn): CallToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (Array.isArray(value)) return { content: value };
  if (typeof value === 'object') {
    if (isCallToolResult(value)) return value;
    if (isContentBlock(value)) return { content: [value] };
    return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
  }
  return { content: [{ type: 'text', text: String(value) }] };
}

/**
 * Turns an error thrown by a tool into a result with `isError: true` whose text a
 * person can act on. `UserError` messages go out verbatim; other errors are
 * prefixed with the tool name so the caller knows where it failed.
 */
export function errorToCallToolResult(toolName: string, error: unknown): CallToolResult {
  let text: string;
  // These messages are written for the caller and already name the tool or the need.
  if (error instanceof UserError || error instanceof ToolCallAbortedError || error instanceof InputUnavailableError) {
    text = error.message;
  } else if (error instanceof ToolkitError) text = `Tool "${toolName}" failed: ${error.message}`;
  else if (error instanceof Error) text = `Tool "${toolName}" failed: ${error.message || error.name}`;
  else text = `Tool "${toolName}" failed: ${String(error)}`;
  return { content: [{ type: 'text', text }], isError: true };
}

/** Result sent when `tools/call` arguments fail the tool's input schema; names each bad field. */
export function invalidArgumentsResult(toolName: string, issues: string[]): CallToolResult {
  return {
    content: [{ type: 'text', text: `Invalid arguments for tool "${toolName}": ${issues.join('; ')}` }],
    isError: true,
  };
}
