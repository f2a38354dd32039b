import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Docs whose code blocks are quoted from type-checked example files. */
const DOCS = ['docs/prompts.md', 'docs/resources.md', 'docs/migrating-from-llm-chat-mcp.md'];
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

describe.each(DOCS)('%s', (doc) => {
  it('quotes every example region verbatim (so the snippets are the type-checked code)', () => {
    const text = read(doc);
    const quotes = [...text.matchAll(/<!-- example: (\S+)#(\S+) -->\n\n```ts\n([\s\S]*?)\n```/g)];
    expect(quotes.length).toBeGreaterThan(3);
    expect(text.match(/<!-- example: /g)?.length).toBe(quotes.length);
    for (const [, path, name, code] of quotes) expect(code, `${doc}: ${path}#${name}`).toBe(region(path!, name!));
  });
});
