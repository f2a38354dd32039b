/**
 * DOCX decompression bombs through a DocumentStore (#24 item 7): a real DOCX built with fflate whose
 * `word/document.xml` inflates to hundreds of MiB is refused with ConversionLimitError `inflated` before
 * mammoth inflates it, both when the central directory declares the size honestly and when it lies (the
 * bytes actually inflated are counted). A real document under the limit still converts.
 */
import { describe, expect, it } from 'vitest';
import { ConversionLimitError } from '../../src/errors.js';
import { docxParagraph, makeBombDocx, makeDocx, writeFile } from '../fixtures/document-builders.js';
import { failure, useDocumentStore } from './store-harness.js';

describe('a DOCX bomb', () => {
  const h = useDocumentStore({ conversionHeapMb: 128, conversionThreads: 1 });

  it('is refused from its declared sizes, before inflating, and the server process stays small', async () => {
    const bytes = makeBombDocx(300);
    expect(bytes.length).toBeLessThan(2 * 1048576);
    const file = await writeFile(h.dir, 'bomb.docx', bytes);
    const { uri } = h.store.registerDocument(file);
    const rssBefore = process.memoryUsage().rss;
    const { error, ms } = await failure(h.store.read(uri));
    expect(error).toBeInstanceOf(ConversionLimitError);
    expect([(error as ConversionLimitError).limit, (error as ConversionLimitError).value]).toEqual([
      'inflated',
      100 * 1048576,
    ]);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain('inflates past the limit of 104,857,600 bytes (100 MiB)');
    expect(ms).toBeLessThan(10_000);
    expect((process.memoryUsage().rss - rssBefore) / 1048576).toBeLessThan(100);
  }, 30_000);

  it('is refused while inflating when its central directory lies about the size', async () => {
    const file = await writeFile(h.dir, 'liar.docx', makeBombDocx(300, { lieAboutSize: true }));
    const { uri } = h.store.registerDocument(file);
    const { error } = await failure(h.store.read(uri));
    expect((error as ConversionLimitError).limit).toBe('inflated');
    expect((error as Error).message).toContain(file);
  }, 30_000);

  it('leaves a real document under the limit readable', async () => {
    const file = await writeFile(h.dir, 'fine.docx', makeDocx(docxParagraph('Hello from a small document')));
    const [content] = await h.store.read(h.store.registerDocument(file).uri);
    expect(content && 'text' in content && content.text).toContain('Hello from a small document');
  }, 30_000);
});

describe('a DOCX under a lowered inflated-size limit', () => {
  const h = useDocumentStore({ maxInflatedBytes: 5 * 1048576, conversionThreads: 1 });

  it('is refused once it inflates past that limit (6 MiB of text, limit 5 MiB)', async () => {
    const file = await writeFile(h.dir, 'six.docx', makeBombDocx(6));
    const { error } = await failure(h.store.read(h.store.registerDocument(file).uri));
    expect([(error as ConversionLimitError).limit, (error as ConversionLimitError).value]).toEqual([
      'inflated',
      5 * 1048576,
    ]);
  }, 30_000);
});
