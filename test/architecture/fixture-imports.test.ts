// The plain-JS fixtures (test/fixtures/*.mjs) import the built package and are not type-checked:
// a name that moved between entry points would only fail when the child process starts. Every
// name they import from dist/ must be exported there.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

describe('fixture imports of the built package', () => {
  it('name only what the entry points export', async () => {
    const missing: string[] = [];
    for (const file of readdirSync(FIXTURES).filter((name) => name.endsWith('.mjs'))) {
      const text = readFileSync(path.join(FIXTURES, file), 'utf8');
      for (const [, names, specifier] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(\.\.\/\.\.\/dist\/[^']+)'/g)) {
        const entry = (await import(pathToFileURL(path.resolve(FIXTURES, specifier!)).href)) as Record<string, unknown>;
        for (const name of names!
          .split(',')
          .map((part) => part.trim().split(/\s+as\s+/)[0]!)
          .filter(Boolean)) {
          if (!name.startsWith('type ') && !(name in entry)) missing.push(`${file}: ${name} from ${specifier}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
