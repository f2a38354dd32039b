import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DocumentChangeEvent, DocumentStore } from '../../src/documents/index.js';
import { InvalidPathError } from '../../src/errors.js';
import { PNG_1X1, makeDocx, makePdf, writeFile } from '../fixtures/document-builders.js';
import { useDocumentStore } from './store-harness.js';

const harness = useDocumentStore();
let base: string;
let root: string;
let store: DocumentStore;
let events: DocumentChangeEvent[];

const names = () => store.list().map((resource) => resource.name);

beforeEach(async () => {
  ({ dir: base, store, events } = harness);
  root = path.join(base, 'docs');
  await fs.mkdir(root);
});

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPathError);
    return (error as InvalidPathError).code;
  }
  return undefined;
}

describe('registerFolder', () => {
  it('scans recursively and names entries by their path relative to the root', async () => {
    const notes = await writeFile(root, 'notes.md', 'n');
    await writeFile(root, 'sub/guide.md', 'g');
    await writeFile(root, 'sub/deeper/more.txt', 'm');
    const resources = store.registerFolder(root);
    expect(resources.map((r) => r.name)).toEqual(['notes.md', 'sub/deeper/more.txt', 'sub/guide.md']);
    expect(resources[0]).toEqual({
      uri: pathToFileURL(notes).href,
      name: 'notes.md',
      mimeType: 'text/markdown',
      path: notes,
      root,
      size: 1,
    });
    expect(store.list()).toEqual(resources);
  });

  it('filters extensions case-insensitively, with or without the leading dot', async () => {
    for (const name of ['a.md', 'B.MD', 'c.txt', 'd.json', 'e.Txt']) await writeFile(root, name, 'x');
    const resources = store.registerFolder({ path: root, extensions: ['MD', '.txt'] });
    expect(resources.map((r) => r.name)).toEqual(['B.MD', 'a.md', 'c.txt', 'e.Txt']);
  });

  // docs/documents.md: a folder scan never serves a file without an extension; registerDocument does.
  it('never serves a file without an extension, whatever `extensions` says', async () => {
    await writeFile(root, 'Makefile', 'all:');
    await writeFile(root, 'a.md', 'x');
    expect(store.registerFolder({ path: root, extensions: ['', 'md'] }).map((r) => r.name)).toEqual(['a.md']);
    expect(store.registerDocument(path.join(root, 'Makefile')).name).toBe('Makefile');
  });

  it('defaults to every supported type and leaves the rest out', async () => {
    const supported = ['a.md', 'b.txt', 'c.json', 'd.csv', 'e.yaml', 'f.html', 'h.ts', 'i.py', 'j.png'];
    for (const name of supported) await writeFile(root, name, name.endsWith('.png') ? PNG_1X1 : 'x');
    await writeFile(root, 'g.pdf', await makePdf(['p']));
    await writeFile(root, 'k.docx', makeDocx('<w:p/>'));
    for (const name of ['movie.mp4', 'tool.exe', 'archive.zip', 'NOEXT']) await writeFile(root, name, 'x');
    store.registerFolder(root);
    expect(names()).toEqual([...supported.slice(0, 6), 'g.pdf', ...supported.slice(6), 'k.docx'].sort());
    const byName = new Map(store.list().map((r) => [r.name, r.mimeType]));
    expect(byName.get('g.pdf')).toBe('text/plain');
    expect(byName.get('f.html')).toBe('text/markdown');
    expect(byName.get('k.docx')).toBe('text/markdown');
    expect(byName.get('h.ts')).toBe('text/typescript');
  });

  it('applies title, description and mimeType from the folder config to every file', async () => {
    await writeFile(root, 'a.log', 'a');
    await writeFile(root, 'sub/b.log', 'b');
    const resources = store.registerFolder({
      path: root,
      title: 'Logs',
      description: 'Server logs',
      mimeType: 'text/markdown',
    });
    expect(resources).toHaveLength(2);
    for (const resource of resources) {
      expect(resource).toMatchObject({ title: 'Logs', description: 'Server logs', mimeType: 'text/markdown' });
    }
    expect(await store.read(resources[1]!.uri)).toEqual([
      { uri: resources[1]!.uri, mimeType: 'text/markdown', text: 'b' },
    ]);
  });

  it('skips dot-files, dot-folders and node_modules, and honours ignore globs', async () => {
    await writeFile(root, 'keep.md', 'k');
    await writeFile(root, '.secret.md', 's');
    await writeFile(root, '.git/notes.md', 'g');
    await writeFile(root, 'node_modules/pkg/readme.md', 'n');
    await writeFile(root, 'sub/node_modules/x.md', 'n');
    await writeFile(root, 'drafts/wip.md', 'w');
    await writeFile(root, 'private/deep/x.md', 'p');
    await writeFile(root, 'sub/page.tmp.md', 't');
    await writeFile(root, 'sub/page.md', 'p');
    store.registerFolder({ path: root, ignore: ['drafts/**', 'private', '**/*.tmp.md'] });
    expect(names()).toEqual(['keep.md', 'sub/page.md']);
  });

  it('skips symlinks that resolve outside the root, keeps file links inside it', async () => {
    await writeFile(base, 'outside/secret.md', 'secret');
    await writeFile(root, 'real.md', 'real');
    await fs.symlink(path.join(base, 'outside/secret.md'), path.join(root, 'escape.md'));
    await fs.symlink(path.join(base, 'outside'), path.join(root, 'escape-dir'));
    await fs.symlink(path.join(root, 'real.md'), path.join(root, 'alias.md'));
    await fs.symlink(path.join(root, 'missing.md'), path.join(root, 'broken.md'));
    await fs.symlink('.', path.join(root, 'loop'));
    store.registerFolder(root);
    expect(names()).toEqual(['alias.md', 'real.md']);
  });

  it('follows links out of the root with followSymlinks, without looping', async () => {
    await writeFile(base, 'outside/secret.md', 'secret');
    await writeFile(base, 'outside/nested/deep.md', 'deep');
    await writeFile(root, 'real.md', 'real');
    await fs.symlink(path.join(base, 'outside/secret.md'), path.join(root, 'escape.md'));
    await fs.symlink(path.join(base, 'outside'), path.join(root, 'escape-dir'));
    await fs.symlink(root, path.join(base, 'outside', 'back-to-root'));
    await fs.symlink('.', path.join(root, 'loop'));
    const resources = store.registerFolder({ path: root, followSymlinks: true });
    expect(names()).toEqual(['escape-dir/nested/deep.md', 'escape-dir/secret.md', 'escape.md', 'real.md']);
    const escaped = resources.find((r) => r.name === 'escape.md')!;
    expect(await store.read(escaped.uri)).toMatchObject([{ text: 'secret' }]);
  });

  it('with followSymlinks, lists a real folder once however it is reached, and never enters a link named node_modules', async () => {
    await writeFile(root, 'sub/s.md', 's');
    await writeFile(base, 'vendor/pkg/readme.md', 'pkg');
    await fs.symlink(path.join(root, 'sub'), path.join(root, 'link-subdir'));
    await fs.symlink(path.join(base, 'vendor'), path.join(root, 'node_modules'));
    store.registerFolder({ path: root, followSymlinks: true });
    const listed = names();
    expect(listed.filter((name) => name.endsWith('s.md'))).toHaveLength(1);
    expect(listed.some((name) => name.includes('readme.md'))).toBe(false);
  });

  it('applies ignore globs inside followed symlinked folders too', async () => {
    await writeFile(base, 'outside/keep.md', 'k');
    await writeFile(base, 'outside/nested/skip.md', 's');
    await fs.symlink(path.join(base, 'outside'), path.join(root, 'linked'));
    store.registerFolder({ path: root, followSymlinks: true, ignore: ['linked/nested'] });
    expect(names()).toEqual(['linked/keep.md']);
  });

  it('skips files over maxFileSizeBytes', async () => {
    await writeFile(root, 'small.md', '12345');
    await writeFile(root, 'big.md', '1234567890');
    store.registerFolder({ path: root, maxFileSizeBytes: 5 });
    expect(names()).toEqual(['small.md']);
  });

  it('throws NOT_A_DIRECTORY for a file, a missing path and an empty path', async () => {
    const file = await writeFile(base, 'file.md', 'f');
    expect(codeOf(() => store.registerFolder(file))).toBe('NOT_A_DIRECTORY');
    expect(codeOf(() => store.registerFolder(path.join(base, 'nope')))).toBe('NOT_A_DIRECTORY');
    expect(codeOf(() => store.registerFolder({ path: '' }))).toBe('NOT_A_DIRECTORY');
    expect(events).toEqual([]);
  });

  // Only a shell expands "~": a missing path starting with it says so, as the CLI does for its folder.
  it('says that "~" is not expanded when such a path is missing', () => {
    const hint = 'which only a shell expands';
    expect(() => store.registerFolder('~/no-such-folder-here')).toThrow(hint);
    expect(() => store.registerDocument('~/no-such-file-here.md')).toThrow(hint);
    expect(() => store.registerFolder(path.join(base, 'nope'))).not.toThrow(hint);
  });

  it('registers nothing and emits nothing when no file matches', async () => {
    await writeFile(root, 'only.json', '{}');
    expect(store.registerFolder({ path: root, extensions: ['md'] })).toEqual([]);
    expect(store.registerFolder(path.join(root))).toHaveLength(1);
    expect(events).toEqual([{ type: 'list_changed' }]);
  });

  it('emits one list_changed for a whole folder and replaces entries on re-registration', async () => {
    for (const name of ['a.md', 'b.md', 'c/d.md']) await writeFile(root, name, name);
    store.registerFolder(root);
    expect(events).toEqual([{ type: 'list_changed' }]);
    store.registerFolder({ path: root, title: 'again' });
    expect(events).toHaveLength(2);
    expect(store.list()).toHaveLength(3);
    expect(store.list().every((r) => r.title === 'again')).toBe(true);
  });

  it('replaces a single-document entry for the same file instead of duplicating it', async () => {
    const file = await writeFile(root, 'a.md', 'a');
    store.registerDocument(file);
    store.registerFolder(root);
    expect(store.list()).toHaveLength(1);
    expect(store.list()[0]).toMatchObject({ name: 'a.md', root });
  });
});
