import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(`${dir}/${entry.name}`) : entry.name.endsWith('.ts') ? [`${dir}/${entry.name}`] : [],
  );

/** A before -> after measurement (`14.9 -> 13.9 KB`, `went from 11 files to 3`): history, which belongs in bench/ and docs/performance.md. */
const HISTORY = /\d[\d.,]*\s*(?:[a-zµ%]+\s*)?(?:->|→)\s*~?\d|\b(?:went|dropped|fell|grew|rose) from ~?\d/i;

describe('source comments', () => {
  it('carry no benchmark history (before -> after numbers) anywhere in src/', () => {
    const found = files('src').flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .map((line, index) => ({ line, where: `${file}:${index + 1}` }))
        .filter(({ line }) => /^\s*(?:\/\/|\*|\/\*)/.test(line) && HISTORY.test(line))
        .map(({ where, line }) => `${where}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
