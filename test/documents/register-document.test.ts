import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DocumentChangeEvent, DocumentStore } from '../../src/documents/index.js';
import { InvalidPathError } from '../../src/errors.js';
import { PNG_1X1, makePdf, writeFile } from '../fixtures/document-builders.js';
import { useDocumentStore } from './store-harness.js';

const harness = useDocumentStore();
let dir: string;
let store: DocumentStore;
let events: DocumentChangeEvent[];
beforeEach(() => ({ dir, store, events } = harness));

describe('registerDocument', () => {
  it('defaults the name to the basename and derives URI, path, size and MIME type', async () => {
    const file = await writeFile(dir, 'notes.md', '# Notes\n');
    const resource = store.registerDocument(file);
    expect(resource).toEqual({
      uri: pathToFileURL(file).href,
      name: 'notes.md',
      mimeType: 'text/markdown',
      path: file,
      size: 8,
    });
    expect(store.list()).toEqual([resource]);
    expect(store.get(resource.uri)).toBe(resource);
  });

  it('applies name, title and description from the config', async () => {
    const file = await writeFile(dir, 'a.txt', 'x');
    const resource = store.registerDocument({
      path: file,
      name: 'Alpha',
      title: 'The alpha file',
      description: 'First',
    });
    expect(resource).toMatchObject({
      name: 'Alpha',
      title: 'The alpha file',
      description: 'First',
      mimeType: 'text/plain',
    });
  });

  it('announces the converted type: text/plain for a PDF, an image type for an image', async () => {
    const pdf = store.registerDocument(await writeFile(dir, 'paper.pdf', await makePdf(['x'])));
    const png = store.registerDocument(await writeFile(dir, 'pic.png', PNG_1X1));
    expect(pdf.mimeType).toBe('text/plain');
    expect(png.mimeType).toBe('image/png');
  });

  it('lets mimeType override the inferred type, for the announcement and the read', async () => {
    const file = await writeFile(dir, 'changes.log', '# Heading');
    const resource = store.registerDocument({ path: file, mimeType: 'text/markdown' });
    expect(resource.mimeType).toBe('text/markdown');
    expect(await store.read(resource.uri)).toEqual([
      { uri: resource.uri, mimeType: 'text/markdown', text: '# Heading' },
    ]);
    const pdf = store.registerDocument({
      path: await writeFile(dir, 'blob.bin', await makePdf(['inside'])),
      mimeType: 'application/pdf',
    });
    expect(pdf.mimeType).toBe('text/plain');
  });

  it('resolves a relative path against the working directory', async () => {
    const file = await writeFile(dir, 'rel.txt', 'r');
    const resource = store.registerDocument(path.relative(process.cwd(), file));
    expect(resource.path).toBe(file);
  });

  it('handles names with spaces and non-ASCII characters', async () => {
    const file = await writeFile(dir, 'my notes – café ünïcode.md', 'olé');
    const resource = store.registerDocument(file);
    expect(resource.name).toBe('my notes – café ünïcode.md');
    expect(resource.uri).toBe(pathToFileURL(file).href);
    expect(resource.uri).not.toContain(' ');
    expect(await store.read(resource.uri)).toEqual([{ uri: resource.uri, mimeType: 'text/markdown', text: 'olé' }]);
    // A client sending the URI with a different (but equivalent) encoding still finds it.
    const loose = resource.uri.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    expect(loose).not.toBe(resource.uri);
    expect(store.get(loose)).toBe(resource);
    expect(store.get('file:///definitely/not/registered.md')).toBeUndefined();
  });

  it('registers a 0-byte file and reads it as empty text', async () => {
    const resource = store.registerDocument(await writeFile(dir, 'empty.txt', ''));
    expect(resource.size).toBe(0);
    expect(await store.read(resource.uri)).toEqual([{ uri: resource.uri, mimeType: 'text/plain', text: '' }]);
  });

  it('classifies a file with an unknown name by its first bytes', async () => {
    const text = store.registerDocument(await writeFile(dir, 'NOTES', 'just words'));
    const binary = store.registerDocument(await writeFile(dir, 'data.qqq', new Uint8Array([0, 1, 2, 0, 255])));
    expect(text.mimeType).toBe('text/plain');
    expect(binary.mimeType).toBe('application/octet-stream');
  });

  it('throws NOT_A_FILE for a directory, a missing path and an empty path', async () => {
    for (const bad of [dir, path.join(dir, 'missing.md'), '']) {
      let caught: unknown;
      try {
        store.registerDocument(bad);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidPathError);
      expect((caught as InvalidPathError).code).toBe('NOT_A_FILE');
    }
    expect(() => store.registerDocument(dir)).toThrow(/use registerFolder/);
    expect(store.list()).toEqual([]);
    expect(events).toEqual([]);
  });

  it('emits exactly one list_changed per registration', async () => {
    store.registerDocument(await writeFile(dir, 'a.md', 'a'));
    expect(events).toEqual([{ type: 'list_changed' }]);
    store.registerDocument(await writeFile(dir, 'b.md', 'b'));
    expect(events).toEqual([{ type: 'list_changed' }, { type: 'list_changed' }]);
  });

  it('replaces the entry when the same file is registered twice (no duplicate URI)', async () => {
    const file = await writeFile(dir, 'a.md', 'a');
    store.registerDocument({ path: file, title: 'old' });
    store.registerDocument(await writeFile(dir, 'b.md', 'b'));
    const again = store.registerDocument({ path: path.join(dir, '.', 'a.md'), title: 'new' });
    expect(store.list().map((r) => r.name)).toEqual(['a.md', 'b.md']);
    expect(store.get(again.uri)?.title).toBe('new');
    expect(events).toHaveLength(3);
  });

  it('returns the same frozen list until something changes', async () => {
    store.registerDocument(await writeFile(dir, 'a.md', 'a'));
    const first = store.list();
    expect(store.list()).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first[0])).toBe(true);
    store.registerDocument(await writeFile(dir, 'b.md', 'b'));
    expect(store.list()).not.toBe(first);
    expect(store.list()).toHaveLength(2);
  });

  it('stops calling a listener after unsubscribe and survives a throwing listener', async () => {
    const seen: string[] = [];
    const off = store.onChange(() => seen.push('x'));
    store.onChange(() => {
      throw new Error('listener bug');
    });
    store.registerDocument(await writeFile(dir, 'a.md', 'a'));
    off();
    store.registerDocument(await writeFile(dir, 'b.md', 'b'));
    expect(seen).toEqual(['x']);
    expect(events).toHaveLength(2);
  });

  it('keeps paths that are symlinks as given', async () => {
    const target = await writeFile(dir, 'real.md', 'real');
    const link = path.join(dir, 'link.md');
    await fs.symlink(target, link);
    const resource = store.registerDocument(link);
    expect(resource.path).toBe(link);
    expect(await store.read(resource.uri)).toMatchObject([{ text: 'real' }]);
  });
});
