import type { GetPromptResult, PromptMessage } from '@modelcontextprotocol/server';

/**
 * What a prompt's `load()` may return (MCP `prompts/get` result):
 * - a string: sent as one `user` message with a text content block,
 * - an array of `PromptMessage` (`{ role: 'user' | 'assistant', content }`),
 * - a full `GetPromptResult` (`{ description?, messages }`).
 * The prompt's `description` is added to the result unless the result carries its own.
 */
export type PromptReturn = string | PromptMessage[] | GetPromptResult;

/**
 * Turns a {@link PromptReturn} into a `GetPromptResult`.
 * @throws TypeError when the value is none of the accepted shapes.
 */
export function toGetPromptResult(value: PromptReturn, description: string | undefined): GetPromptResult {
  const withDescription = description === undefined ? {} : { description };
  if (typeof value === 'string') {
    return { ...withDescription, messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  }
  if (Array.isArray(value)) return { ...withDescription, messages: value };
  if (value !== null && typeof value === 'object' && Array.isArray((value as GetPromptResult).messages)) {
    return { ...withDescription, ...value };
  }
  throw new TypeError('load() must return a string, an array of prompt messages, or { messages }.');
}
