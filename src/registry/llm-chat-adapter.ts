import type { CallToolResult } from '@modelcontextprotocol/server';
import { InvalidToolError } from '../errors.js';
import type { JsonSchemaObject } from './schema.js';
import { Tool, type ToolDefinition } from './tool.js';
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

/**
 * The public shape of a `Tool` of `@johannes.latzel/llm-chat` (0.7): `name`, `description`,
 * `execute(args)` resolving to one `ToolResult` (`{ tool, result, status, error? }`) per node of
 * the result chain, and `toOpenAI()` whose `function.parameters` is the JSON Schema of the
 * arguments. Recognized by shape, so the toolkit never imports that package.
 */
export interface LlmChatToolShape {
  readonly name: string;
  readonly description?: string;
  execute(args: Record<string, unknown>): unknown;
  toOpenAI(): { function: { name?: string; description?: string; parameters?: Record<string, unknown> | null } };
}

const FAILED = new Set(['error', 'failed', 'failure']);

function entryText(entry: LlmChatToolEntry): string {
  return typeof entry.result === 'string' ? entry.result : JSON.stringify(entry.result, null, 2);
}

/**
 * Maps llm-chat entries onto an MCP result: one text block per entry, in order (a string
 * `result` as is, anything else as indented JSON); any entry whose `status` is `error`,
 * `failed` or `failure` (any case) makes it `isError: true`.
 */
export function llmChatEntriesToResult(output: unknown): CallToolResult {
  const entries: LlmChatToolEntry[] = (Array.isArray(output) ? output : [output]).map((entry) =>
    entry !== null && typeof entry === 'object' && 'result' in entry ? (entry as LlmChatToolEntry) : { result: entry },
  );
  const isError = entries.some((entry) => FAILED.has(String(entry.status ?? '').toLowerCase()));
  return { content: entries.map((entry) => ({ type: 'text', text: entryText(entry) })), ...(isError && { isError }) };
}

const EMPTY_PARAMETERS: JsonSchemaObject = { type: 'object', properties: {} };

/**
 * The controls a toolkit tool has, for an llm-chat tool (see {@link fromLlmChatTool}): `timeoutMs`
 * (ms), `title`, `annotations`, `icons`, `_meta`, `canAccess`, `taskSupport`, `taskAfterMs`, and a
 * `description` replacing the tool's own. Name and input schema come from the llm-chat tool.
 */
export type FromLlmChatToolOptions = Omit<ToolDefinition, 'name' | 'inputSchema' | 'outputSchema'>;

class LlmChatTool extends Tool<Record<string, unknown>> {
  constructor(
    private readonly source: LlmChatToolLike | LlmChatToolShape,
    definition: { description?: string; parameters: JsonSchemaObject },
    options: FromLlmChatToolOptions,
  ) {
    super({
      ...options,
      name: source.name,
      description: options.description ?? definition.description,
      inputSchema: definition.parameters,
    });
  }

  async execute(args: Record<string, unknown>): Promise<ToolReturn> {
    return llmChatEntriesToResult(await this.source.execute(args));
  }
}

/** True when `value` is an object whose members have these `typeof`s (shape recognition, no `instanceof`). */
export function hasShape(value: unknown, members: Record<string, 'string' | 'function'>): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Object.entries(members).every(([key, type]) => typeof record[key] === type);
}

/** True for an object with the public shape of an llm-chat `Tool` (see {@link LlmChatToolShape}). */
export function isLlmChatTool(value: unknown): value is LlmChatToolShape {
  return hasShape(value, { name: 'string', execute: 'function', toOpenAI: 'function' });
}

/** The llm-chat `Tool`'s OpenAI definition: its parameters are the MCP input schema. */
function openAiDefinition(source: LlmChatToolShape): { description?: string; parameters: JsonSchemaObject } {
  let fn: ReturnType<LlmChatToolShape['toOpenAI']>['function'] | undefined;
  try {
    fn = source.toOpenAI()?.function;
  } catch (error) {
    throw new InvalidToolError(`llm-chat tool "${source.name}": toOpenAI() threw: ${(error as Error)?.message}`);
  }
  return {
    description: source.description ?? fn?.description,
    parameters: (fn?.parameters as JsonSchemaObject | null | undefined) ?? EMPTY_PARAMETERS,
  };
}

/**
 * Wraps an llm-chat tool as a {@link Tool}. Two shapes are accepted:
 * - a `Tool` of `@johannes.latzel/llm-chat` ({@link LlmChatToolShape}): its input schema is
 *   `toOpenAI().function.parameters`, sent verbatim in `tools/list` and validated as JSON Schema;
 * - a plain object ({@link LlmChatToolLike}) whose `parameters` is a JSON Schema object.
 *
 * `execute(args)` results become text content by {@link llmChatEntriesToResult}: one block per
 * `ToolResult` of the chain, in order; a `status: 'error'` entry (e.g. the llm-chat error
 * boundary's `Error: <message>`) makes the result `isError: true`.
 *
 * `options` gives it the controls of a toolkit tool ({@link FromLlmChatToolOptions}), e.g.
 * `fromLlmChatTool(tool, { timeoutMs: 5_000 })`. llm-chat tools never see the call's abort
 * signal: on a timeout, cancellation or `stop()` the caller is answered at once, but the tool's
 * own work runs on until it returns (and `stop()` names it in a warning). Without `timeoutMs`
 * the server's `defaultToolTimeoutMs` applies.
 * @throws InvalidToolError when the object lacks a string `name` or an `execute(args)` method,
 *   when `toOpenAI()` throws, when the name or schema is unusable, or when an option is invalid
 *   (e.g. `timeoutMs` not positive; see {@link Tool}).
 */
export function fromLlmChatTool(
  source: LlmChatToolLike | LlmChatToolShape,
  options: FromLlmChatToolOptions = {},
): Tool<Record<string, unknown>> {
  if (!source || typeof source.name !== 'string' || typeof source.execute !== 'function') {
    throw new InvalidToolError('fromLlmChatTool() needs an object with a string `name` and an `execute(args)` method.');
  }
  const definition = isLlmChatTool(source)
    ? openAiDefinition(source)
    : { description: source.description, parameters: (source as LlmChatToolLike).parameters ?? EMPTY_PARAMETERS };
  return new LlmChatTool(source, definition, options);
}
