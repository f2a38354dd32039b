/**
 * Short excerpts of a text around the first occurrence of a search term.
 */

const WORD_CHAR = /[\p{L}\p{N}]/u;

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Offset of the first whole-word-start occurrence (case-insensitive) of any of `terms` in `text`
 * between `from` and `to`, with the length of the match; `undefined` when none occurs.
 * Terms are matched as word prefixes, so a prefix-matched search term is still found.
 */
export function findFirstTerm(
  text: string,
  terms: readonly string[],
  from = 0,
  to = text.length,
): { index: number; length: number } | undefined {
  const usable = terms.filter((term) => term.length > 0).sort((a, b) => b.length - a.length);
  if (usable.length === 0) return undefined;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${usable.map(escapeRegExp).join('|')})`, 'giu');
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  if (match === null || match.index >= to) return undefined;
  return { index: match.index, length: match[0].length };
}

/**
 * An excerpt of `text` around `[index, index + length)`, about `width` characters long, cut at word
 * boundaries inside `[from, to)`, with whitespace collapsed and `…` where text was cut off.
 */
export function snippetAround(
  text: string,
  hit: { index: number; length: number },
  from = 0,
  to = text.length,
  width = 160,
): string {
  const before = Math.floor((width - hit.length) / 3);
  let start = Math.max(from, hit.index - before);
  let end = Math.min(to, start + width);
  start = Math.max(from, Math.min(start, end - width));
  // Move inward to word boundaries so no word is cut in half.
  while (start > from && start < hit.index && WORD_CHAR.test(text[start - 1] ?? '')) start += 1;
  while (end < to && end > hit.index + hit.length && WORD_CHAR.test(text[end] ?? '')) end -= 1;
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > from ? '…' : ''}${body}${end < to ? '…' : ''}`;
}

/** The excerpt for a search hit: around the first occurrence of `terms` in `[from, to)`, or its opening when none occurs. */
export function makeSnippet(text: string, terms: readonly string[], from = 0, to = text.length): string {
  const hit = findFirstTerm(text, terms, from, to) ?? { index: from, length: 0 };
  return snippetAround(text, hit, from, to);
}
