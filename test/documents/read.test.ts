import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConvertedContent, Converter, ConverterInput } from '../../src/converters/index.js';
import { DocumentStore, type DocumentReadContents } from '../../src/documents/index.js';
import { DocumentNotFoundError, DocumentReadError, InvalidPathError, ToolkitError } from '../../src/errors.js';
import {
  PNG_1X1,
  docxParagraph,
  makeAsciiPdf,
  makeCorruptPdf,
  makeDocx,
  makeEncryptedPdf,
  makePdf,
  utf16WithBom,
  writeFile,
} from '../fixtures/document-builders.js';
import { until, useDocumentStore } from './store-harness.js';

const harness = useDocumentStore();
let dir: string;
let store: DocumentStore;
beforeEach(() => ({ dir, store } = harness));

const textOf = (contents: DocumentReadContents): string => {
  const [item] = contents;
  if (item === undefined || !('text' in item)) throw new Error('expected one text item');
  return item.text;
};

async function readError(uri: string): Promise<ToolkitError> {
  const error = await store.read(uri).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolkitError);
  return error as ToolkitError;
}

/** A converter for text/markdown that counts its calls. */
function countingConverter(): Converter & { calls: number } {
  return {
    name: 'counting',
    mimeTypes: ['text/markdown'],
    calls: 0,
    async convert(input: ConverterInput): Promise<ConvertedContent> {
      this.calls++;
      return { kind: 'text', text: `converted:${new TextDecoder().decode(input.bytes)}`, mimeType: 'text/markdown' };
    },
  };
}

describe('DocumentStore.read: content', () => {
  it('reads lazily: edits made after registration are seen on the next read', async () => {
    const file = await writeFile(dir, 'a.md', 'first');
    const { uri } = store.registerDocument(file);
    expect(textOf(await store.read(uri))).toBe('first');
    await fs.writeFile(file, 'second version');
    expect(textOf(await store.read(uri))).toBe('second version');
  });

  it('converts a multi-page PDF to text with pages kept apart', async () => {
    const { uri } = store.registerDocument(
      await writeFile(dir, 'paper.pdf', await makePdf(['one', 'two', 'needle three'])),
    );
    const [item] = await store.read(uri);
    expect(item).toMatchObject({ uri, mimeType: 'text/plain' });
    const text = textOf([item!]);
    expect(text.indexOf('needle')).toBeGreaterThan(text.indexOf('--- page 3 ---'));
    expect(text.indexOf('--- page 3 ---')).toBeGreaterThan(text.indexOf('two'));
  });

  it('sniffs a PDF named .txt and converts it', async () => {
    const { uri } = store.registerDocument(await writeFile(dir, 'liar.txt', await makePdf(['hidden pdf text'])));
    expect(textOf(await store.read(uri))).toMatch(/^--- page 1 ---\nhidden pdf text$/);
    const ascii = store.registerDocument(await writeFile(dir, 'ascii.txt', makeAsciiPdf('plain ascii pdf')));
    expect(textOf(await store.read(ascii.uri))).toBe('--- page 1 ---\nplain ascii pdf');
  });

  it('converts HTML and DOCX to Markdown', async () => {
    const html = store.registerDocument(await writeFile(dir, 'page.html', '<h2>Title</h2><p>Body <em>text</em></p>'));
    const docx = store.registerDocument(await writeFile(dir, 'doc.docx', makeDocx(docxParagraph('Word body'))));
    expect(await store.read(html.uri)).toEqual([
      { uri: html.uri, mimeType: 'text/markdown', text: '## Title\n\nBody _text_' },
    ]);
    expect(await store.read(docx.uri)).toEqual([{ uri: docx.uri, mimeType: 'text/markdown', text: 'Word body' }]);
  });

  it('decodes a UTF-16 text file with BOM', async () => {
    const { uri } = store.registerDocument(await writeFile(dir, 'wide.txt', utf16WithBom('Grüße aus UTF-16', 'le')));
    expect(await store.read(uri)).toEqual([{ uri, mimeType: 'text/plain', text: 'Grüße aus UTF-16' }]);
  });

  it('returns images as base64 blobs with their MIME type', async () => {
    const { uri } = store.registerDocument(await writeFile(dir, 'pixel.png', PNG_1X1));
    const [item] = await store.read(uri);
    expect(item).toMatchObject({ uri, mimeType: 'image/png' });
    expect(item && 'blob' in item ? Buffer.from(item.blob, 'base64') : undefined).toEqual(Buffer.from(PNG_1X1));
  });

  it('uses a converter the app registered on store.converters', async () => {
    const counting = countingConverter();
    store.converters.register(counting);
    const { uri } = store.registerDocument(await writeFile(dir, 'a.md', 'hi'));
    expect(textOf(await store.read(uri))).toBe('converted:hi');
    expect(counting.calls).toBe(1);
  });
});

describe('DocumentStore.read: errors', () => {
  it('throws DocumentNotFoundError for an unknown URI', async () => {
    const error = await readError('file:///nowhere/at/all.md');
    expect(error).toBeInstanceOf(DocumentNotFoundError);
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('throws DocumentNotFoundError when the file was deleted after registration', async () => {
    const file = await writeFile(dir, 'gone.md', 'bye');
    const { uri } = store.registerDocument(file);
    await store.read(uri);
    await fs.rm(file);
    const error = await readError(uri);
    expect(error).toBeInstanceOf(DocumentNotFoundError);
    expect(error.message).toContain('no longer exists');
  });

  it('throws DocumentNotFoundError when the file was replaced by a directory', async () => {
    const file = await writeFile(dir, 'shape.md', 'x');
    const { uri } = store.registerDocument(file);
    await fs.rm(file);
    await fs.mkdir(file);
    expect(await readError(uri)).toBeInstanceOf(DocumentNotFoundError);
  });

  it('throws RESOURCE_TOO_LARGE over the size limit, including for a file that grew', async () => {
    const small = new DocumentStore({ maxFileSizeBytes: 10 });
    const file = await writeFile(dir, 'grows.txt', '12345');
    const { uri } = small.registerDocument(file);
    expect(textOf(await small.read(uri))).toBe('12345');
    await fs.writeFile(file, '12345678901');
    const error = await small.read(uri).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentReadError);
    expect((error as DocumentReadError).code).toBe('RESOURCE_TOO_LARGE');
    expect((error as DocumentReadError).message).toContain(file);
    await small.close();
  });

  it('throws CONVERSION_FAILED naming the file and the reason for a corrupt PDF', async () => {
    const file = await writeFile(dir, 'broken.pdf', makeCorruptPdf());
    const error = await readError(store.registerDocument(file).uri);
    expect(error).toBeInstanceOf(DocumentReadError);
    expect(error.code).toBe('CONVERSION_FAILED');
    expect((error as DocumentReadError).path).toBe(file);
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/corrupt/);
  });

  it('throws CONVERSION_FAILED for an encrypted PDF, saying it is encrypted', async () => {
    const file = await writeFile(dir, 'locked.pdf', makeEncryptedPdf());
    const error = await readError(store.registerDocument(file).uri);
    expect(error.code).toBe('CONVERSION_FAILED');
    expect(error.message).toMatch(/locked\.pdf.*encrypted/);
  });

  it('re-checks that a folder entry still resolves inside its root', async () => {
    const root = path.join(dir, 'root');
    const file = await writeFile(root, 'a.md', 'inside');
    const outside = await writeFile(dir, 'outside.md', 'secret');
    const [entry] = store.registerFolder(root);
    await fs.rm(file);
    await fs.symlink(outside, file);
    const error = await readError(entry!.uri);
    expect(error).toBeInstanceOf(InvalidPathError);
    expect(error.code).toBe('PATH_OUTSIDE_ROOT');
    expect(error.message).not.toContain(outside);
  });

  it('allows the same escape when the folder was registered with followSymlinks', async () => {
    const root = path.join(dir, 'root');
    const file = await writeFile(root, 'a.md', 'inside');
    const outside = await writeFile(dir, 'outside.md', 'secret');
    const [entry] = store.registerFolder({ path: root, followSymlinks: true });
    await fs.rm(file);
    await fs.symlink(outside, file);
    expect(textOf(await store.read(entry!.uri))).toBe('secret');
  });
});

describe('DocumentStore.readFull: signal', () => {
  it('a read whose signal has aborted converts nothing and rejects with its reason', async () => {
    const counting = countingConverter();
    store.converters.register(counting);
    const { uri } = store.registerDocument(await writeFile(dir, 'a.md', 'never'));
    const signal = AbortSignal.abort(new Error('the index stopped'));
    await expect(store.readFull(uri, { signal })).rejects.toThrow('the index stopped');
    expect(counting.calls).toBe(0);
  });

  it('a read sharing the conversion of a read aborted before it converted still gets the content', async () => {
    const counting = countingConverter();
    store.converters.register(counting);
    const { uri } = store.registerDocument(await writeFile(dir, 'a.md', 'shared'));
    const readFile = fs.readFile;
    let letRead = (): void => undefined;
    const gate = new Promise<void>((resolve) => (letRead = resolve));
    const reads = vi.spyOn(fs, 'readFile').mockImplementation(async (...args: Parameters<typeof fs.readFile>) => {
      await gate;
      return readFile(...args);
    });
    try {
      const controller = new AbortController();
      const first = store.readFull(uri, { signal: controller.signal }).catch((error: unknown) => error);
      await until(() => reads.mock.calls.length === 1, []); // its conversion started: it is reading the file
      const second = store.readFull(uri);
      await new Promise((resolve) => setTimeout(resolve, 100)); // the second finds that conversion and waits for it
      expect(reads).toHaveBeenCalledTimes(1);
      controller.abort(new Error('the first reader left'));
      letRead();
      expect(await first).toMatchObject({ message: 'the first reader left' });
      expect(textOf(await second)).toBe('converted:shared');
      expect(counting.calls).toBe(1); // the aborted one never converted; the second did, once
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });
});

describe('DocumentStore.read: cache', () => {
  it('does not re-convert an unchanged file, and re-converts an edited one', async () => {
    const counting = countingConverter();
    store.converters.register(counting);
    const file = await writeFile(dir, 'a.md', 'v1');
    const { uri } = store.registerDocument(file);
    await store.read(uri);
    await store.read(uri);
    expect(counting.calls).toBe(1);
    await fs.writeFile(file, 'version 2');
    expect(textOf(await store.read(uri))).toBe('converted:version 2');
    expect(counting.calls).toBe(2);
  });

  it('re-converts when only the modification time changed', async () => {
    const counting = countingConverter();
    store.converters.register(counting);
    const file = await writeFile(dir, 'a.md', 'aaaa');
    const { uri } = store.registerDocument(file);
    await store.read(uri);
    await fs.writeFile(file, 'bbbb');
    const later = new Date(Date.now() + 5000);
    await fs.utimes(file, later, later);
    expect(textOf(await store.read(uri))).toBe('converted:bbbb');
    expect(counting.calls).toBe(2);
  });

  it('re-converts after the app registers a different converter for the type', async () => {
    const { uri } = store.registerDocument(await writeFile(dir, 'a.md', 'raw'));
    expect(textOf(await store.read(uri))).toBe('raw');
    store.converters.register(countingConverter());
    expect(textOf(await store.read(uri))).toBe('converted:raw');
  });

  it('caches nothing with a zero budget', async () => {
    const counting = countingConverter();
    const uncached = new DocumentStore({ cacheMaxBytes: 0 });
    uncached.converters.register(counting);
    const { uri } = uncached.registerDocument(await writeFile(dir, 'a.md', 'x'));
    await uncached.read(uri);
    await uncached.read(uri);
    expect(counting.calls).toBe(2);
    await uncached.close();
  });
});
