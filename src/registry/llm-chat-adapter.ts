import type { CallToolResult } from '@modelcontextprotocol/server';
import { InvalidToolError } from '../errors.js';
import type { JsonSchemaObject } from './schema.js';
import { Tool } from './tool.js';
import type { ToolReturn } from './tool-result.js';

/** One entry of an llm-chat tool's output: a result and a status (`success`, `error`, ...). */
export interface LlmChatToolEntry {
  result: unknown;
  status?: string;
}

/**
 * The shape of an llm-chat style tool object (no dependency on that package):
 * `name`, `description`, a JSON Schema `parameters` object, and `execute(args)`
 * returning one `{ result, status }` entry or an array of them.
 */
export interface LlmChatToolLike {
  name: string;
  description?: string;
  parameters?: JsonSchemaObject;
  execute(args: Record<string, unknown>): unknown;
}

const FAILED = new Set(['error', 'failed', 'failure']);

function entryText(entry: LlmChatToolEntry): string {
  return typeof entry.result === 'string' ? entry.result : JSON.stringify(entry.result, null, 2);
}

/** Maps llm-chat entries onto an MCP result: any entry with an error status makes it `isError`. */
export function llmChatEntriesToResult(output: unknown): CallToolResult {
  const entries: LlmChatToolEntry[] = (Array.isArray(output) ? output : [output]).map((entry) =>
    entry !== null && typeof entry === 'object' && 'result' in entry ? (entry as LlmChatToolEntry) : { result: entry },
  );
  const isError = entries.some((entry) => FAILED.has(String(entry.status ?? '').toLowerCase()));
  return { content: entries.map((entry) => ({ type: 'text', text: entryText(entry) })), ...(isError && { isError }) };
}

class LlmChatTool extends Tool<Record<string, unknown>> {
  constructor(private readonly source: LlmChatToolLike) {
    super({
      name: source.name,
      description: source.description,
      inputSchema: source.parameters ?? { type: 'object', properties: {} },
    });
  }

  async execute(args: Record<string, unknown>): Promise<ToolReturn> {
    return llmChatEntriesToResult(await this.source.execute(args));
  }
}

/**
 * Wraps an llm-chat style tool object as a {@link Tool}: `parameters` becomes the
 * input schema (validated as JSON Schema), and the `{ result, status }` entries become
 * text content (`status: 'error'` -> `isError: true`).
 * @throws InvalidToolError when the object lacks a name or an `execute` function.
 */
export function fromLlmChatTool(source: LlmChatToolLike): Tool<Record<string, unknown>> {
  if (!source || typeof source.name !== 'string' || typeof source.execute !== 'function') {
    throw new InvalidToolError('fromLlmChatTool() needs an object with a string `name` and an `execute(args)` method.');
  }
  return new LlmChatTool(source);
}
