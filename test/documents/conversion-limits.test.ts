/**
 * Conversion limits through a DocumentStore: wall time, worker heap and output size stop a conversion with
 * a ConversionLimitError naming the limit, the file and the value; the failure is remembered until the
 * file changes; a file just under the limits converts; the pool keeps serving after a worker was killed.
 * Hostile converters live in test/fixtures/hostile-converters.mjs (plain JS, loaded by the workers).
 */
import fs from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConversionLimitError } from '../../src/errors.js';
import { DoublingConverter, EchoConverter, HeapHogConverter, SpinConverter } from '../fixtures/hostile-converters.mjs';
import { makeBombPdf, makePdf, writeFile } from '../fixtures/document-builders.js';
import { failure, useDocumentStore } from './store-harness.js';

const HOSTILE = 'application/x-hostile';
const ECHO = 'application/x-echo';
const DOUBLING = 'application/x-doubling';

describe('conversion limits: wall time', () => {
  // Counted from when a worker takes the conversion, worker start-up included: leave room for a slow machine.
  const h = useDocumentStore({ conversionTimeoutMs: 3000, conversionThreads: 1 });

  it('stops a conversion past its wall time, remembers it, and keeps converting other files', async () => {
    h.store.converters.register(new SpinConverter());
    const file = await writeFile(h.dir, 'spin.bin', 'x');
    const { uri } = h.store.registerDocument({ path: file, mimeType: HOSTILE });
    const first = await failure(h.store.read(uri));
    expect(first.error).toBeInstanceOf(ConversionLimitError);
    const error = first.error as ConversionLimitError;
    expect([error.code, error.limit, error.value]).toEqual(['CONVERSION_LIMIT', 'time', 3000]);
    expect(error.message).toContain(file);
    expect(error.message).toContain('time limit of 3,000 ms');
    expect(first.ms).toBeGreaterThanOrEqual(2900);
    expect(first.ms).toBeLessThan(8_000);

    const second = await failure(h.store.read(uri));
    expect(second.error).toBe(first.error); // remembered: not converted again
    expect(second.ms).toBeLessThan(50);

    // The killed worker was replaced: the pool still converts (a converter small enough for the time limit).
    h.store.converters.register(new EchoConverter());
    const echo = await writeFile(h.dir, 'ok.bin', 'still serving');
    const [content] = await h.store.read(h.store.registerDocument({ path: echo, mimeType: ECHO }).uri);
    expect(content && 'text' in content && content.text).toBe('still serving');
  });
});

describe('conversion limits: worker heap', () => {
  const h = useDocumentStore({ conversionHeapMb: 48, conversionThreads: 1 });

  it('stops a conversion that exhausts its worker heap', async () => {
    h.store.converters.register(new HeapHogConverter());
    const file = await writeFile(h.dir, 'hog.bin', 'x');
    const { uri } = h.store.registerDocument({ path: file, mimeType: HOSTILE });
    const { error } = await failure(h.store.read(uri));
    expect(error).toBeInstanceOf(ConversionLimitError);
    expect((error as ConversionLimitError).limit).toBe('heap');
    expect((error as Error).message).toContain('heap limit of 48 MiB');
    expect((error as Error).message).toContain(file);
  });
});

describe('conversion limits: output size', () => {
  const h = useDocumentStore({ maxOutputChars: 1000, conversionThreads: 1 });

  it('converts a text just under the limit, refuses one just over, and retries once the file changes', async () => {
    h.store.converters.register(new DoublingConverter());
    const file = await writeFile(h.dir, 'double.bin', 'a'.repeat(500));
    const { uri } = h.store.registerDocument({ path: file, mimeType: DOUBLING });
    const [exact] = await h.store.read(uri);
    expect(exact && 'text' in exact && exact.text.length).toBe(1000);

    await fs.writeFile(file, 'a'.repeat(501));
    const { error } = await failure(h.store.read(uri));
    expect((error as ConversionLimitError).limit).toBe('output');
    expect((error as Error).message).toContain('output limit of 1,000 characters');

    await fs.writeFile(file, 'b'.repeat(499)); // changed on disk: tried again
    const [after] = await h.store.read(uri);
    expect(after && 'text' in after && after.text).toBe('b'.repeat(998));
  });

  it('never refuses a conversion for producing as many characters as its file has bytes', async () => {
    h.store.converters.register(new EchoConverter());
    const file = await writeFile(h.dir, 'echo.bin', 'e'.repeat(5000));
    const [content] = await h.store.readFull(h.store.registerDocument({ path: file, mimeType: ECHO }).uri);
    expect(content && 'text' in content && content.text.length).toBe(5000);
  });
});

describe('a decompression-bomb PDF', () => {
  const h = useDocumentStore({ maxOutputChars: 1_000_000, conversionTimeoutMs: 25_000 });

  it('is stopped at the output limit while pdf.js is still inflating, then answered from memory', async () => {
    const file = await writeFile(h.dir, 'bomb.pdf', await makeBombPdf(150));
    const { uri } = h.store.registerDocument(file);
    const first = await failure(h.store.read(uri));
    expect((first.error as ConversionLimitError).limit).toBe('output');
    expect((first.error as Error).message).toContain(file);
    expect(first.ms).toBeLessThan(25_000);

    const second = await failure(h.store.read(uri));
    expect(second.error).toBe(first.error);
    expect(second.ms).toBeLessThan(50);

    await fs.writeFile(file, await makePdf(['defused']));
    const [content] = await h.store.read(pathToFileURL(file).href);
    expect(content && 'text' in content && content.text).toContain('defused');
  }, 60_000);
});
