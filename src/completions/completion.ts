import type { CompleteResult } from '@modelcontextprotocol/server';
import type { RequestContext } from '../registry/request-context.js';

/** At most this many values go into one `completion/complete` result (MCP "Completion": max 100 items). */
export const MAX_COMPLETION_VALUES = 100;

/**
 * What a completion function receives besides the partial value: the request context plus the
 * values the client already chose for the *other* arguments or template variables
 * (`params.context.arguments` of `completion/complete`, empty when the client sent none).
 */
export interface CompletionContext extends RequestContext {
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * Suggestions returned by a {@link CompleteFunction}: a plain list of values, or an object with
 * the values and, optionally, the total number of matches and whether more exist than were sent.
 */
export type CompletionSuggestions =
  readonly string[] | { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };

/**
 * Suggests values for one prompt argument or resource-template variable (MCP
 * `completion/complete`). `value` is what the user has typed so far (possibly empty). Return
 * any number of suggestions, best first: the server sends the first 100 and sets `total` and
 * `hasMore`. A thrown error is sent to the client as JSON-RPC error -32603.
 */
export type CompleteFunction = (
  value: string,
  context: CompletionContext,
) => CompletionSuggestions | Promise<CompletionSuggestions>;

/**
 * A {@link CompleteFunction} over a fixed list: the entries that start with the typed value,
 * compared case-insensitively, in list order. Used for an argument's `enum`.
 */
export function completeFromList(values: readonly string[]): CompleteFunction {
  return (value) => {
    const prefix = value.toLowerCase();
    return values.filter((candidate) => candidate.toLowerCase().startsWith(prefix));
  };
}

/** An empty completion result (unknown argument, or nothing to suggest). */
export function emptyCompleteResult(): CompleteResult {
  return { completion: { values: [], total: 0, hasMore: false } };
}

/**
 * Turns suggestions into a `completion/complete` result: at most {@link MAX_COMPLETION_VALUES}
 * values; `total` is the given total or the number of suggestions; `hasMore` is the given flag
 * or whether values were cut.
 */
export function toCompleteResult(suggestions: CompletionSuggestions): CompleteResult {
  const list = isValueList(suggestions) ? suggestions : suggestions.values;
  const values = list.slice(0, MAX_COMPLETION_VALUES).map(String);
  const total = (isValueList(suggestions) ? undefined : suggestions.total) ?? list.length;
  const hasMore = (isValueList(suggestions) ? undefined : suggestions.hasMore) ?? total > values.length;
  return { completion: { values, total, hasMore } };
}

function isValueList(suggestions: CompletionSuggestions): suggestions is readonly string[] {
  return Array.isArray(suggestions);
}
