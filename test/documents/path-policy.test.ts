import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  hasAllowedExtension,
  isHiddenRelativePath,
  isInside,
  normalizeExtensions,
} from '../../src/documents/path-policy.js';

describe('isInside', () => {
  const root = path.resolve('/srv/docs');
  it('accepts the root and paths below it', () => {
    expect(isInside(root, root)).toBe(true);
    expect(isInside(root, path.join(root, 'a', 'b.md'))).toBe(true);
    expect(isInside(root, path.join(root, '..docs-not-parent'))).toBe(true);
  });
  it('rejects parents, siblings sharing a prefix and unrelated paths', () => {
    expect(isInside(root, path.resolve('/srv'))).toBe(false);
    expect(isInside(root, path.resolve('/srv/docs-private/x.md'))).toBe(false);
    expect(isInside(root, path.resolve('/etc/passwd'))).toBe(false);
  });
});

describe('extension filters', () => {
  it('normalizes case, dots, blanks and duplicates', () => {
    expect(normalizeExtensions(['MD', '.txt', '..Md', ' ', '.'])).toEqual(['md', 'txt']);
  });
  it('matches the last or a multi-part extension, never a dot-file name', () => {
    const allowed = new Set(['md', 'tar.gz']);
    expect(hasAllowedExtension('Notes.MD', allowed)).toBe(true);
    expect(hasAllowedExtension('/a/b/backup.tar.gz', allowed)).toBe(true);
    expect(hasAllowedExtension('archive.gz', allowed)).toBe(false);
    expect(hasAllowedExtension('.md', allowed)).toBe(false);
    expect(hasAllowedExtension('md', allowed)).toBe(false);
  });
});

describe('isHiddenRelativePath', () => {
  it('flags dot segments and node_modules at any depth', () => {
    expect(isHiddenRelativePath('.env')).toBe(true);
    expect(isHiddenRelativePath('a/.git/config')).toBe(true);
    expect(isHiddenRelativePath('pkg/node_modules/x/readme.md')).toBe(true);
    expect(isHiddenRelativePath('docs/guide.md')).toBe(false);
    expect(isHiddenRelativePath('')).toBe(false);
  });
});
