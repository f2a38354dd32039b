import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Docs whose code blocks are quoted from type-checked example files, with how many quotes each has at least. */
const DOCS: Array<[doc: string, quotes: number]> = [
  ['docs/prompts.md', 4],
  ['docs/resources.md', 4],
  ['docs/testing.md', 1],
  ['README.md', 2],
  ['docs/tools.md', 7],
  ['docs/registry.md', 4],
  ['docs/migrating-from-llm-chat-mcp.md', 6],
  ['docs/settings.md', 4],
  ['docs/tasks.md', 5],
  ['docs/openapi.md', 2],
  ['docs/authorization.md', 3],
  ['docs/middleware.md', 3],
  ['docs/composition.md', 3],
  ['docs/runtimes.md', 2],
  ['docs/transports.md', 2],
];
const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** The lines between `// #region name` and `// #endregion name` of an example file. */
function region(path: string, name: string): string {
  const lines = read(path).split('\n');
  const start = lines.indexOf(`// #region ${name}`);
  const end = lines.indexOf(`// #endregion ${name}`);
  if (start < 0 || end < start) throw new Error(`${path} has no region "${name}"`);
  return lines.slice(start + 1, end).join('\n');
}

describe.each(DOCS)('%s', (doc, minimum) => {
  it('quotes every example region verbatim (so the snippets are the type-checked code)', () => {
    const text = read(doc);
    const quotes = [...text.matchAll(/<!-- example: (\S+)#(\S+) -->\n\n```ts\n([\s\S]*?)\n```/g)];
    expect(quotes.length).toBeGreaterThanOrEqual(minimum);
    expect(text.match(/<!-- example: /g)?.length).toBe(quotes.length);
    for (const [, path, name, code] of quotes) expect(code, `${doc}: ${path}#${name}`).toBe(region(path!, name!));
    // No TypeScript block escapes the check: each one is a quote.
    expect(text.match(/^```ts$/gm)?.length, `${doc}: a \`\`\`ts block that is not quoted`).toBe(quotes.length);
  });
});
