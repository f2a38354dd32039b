/**
 * Files a folder scan leaves out for their size are never dropped silently (#24 item 8): the store lists
 * them (`skipped()`), tells `onSkip` listeners once per file (not again on a rescan), forgets a file once
 * it fits (it is registered) or is gone, and names it again when it grows past the limit later (a rescan
 * then leaves it out of the list).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SkippedDocument } from '../../src/documents/document-store.js';
import { writeFile } from '../fixtures/document-builders.js';
import { useDocumentStore } from './store-harness.js';

describe('files over the size limit', () => {
  const h = useDocumentStore({ maxFileSizeBytes: 100, watch: true, watchDebounceMs: 20, watchMaxWaitMs: 100 });

  it('are listed and reported once, forgotten once they fit, and reported again when they grow', async () => {
    await writeFile(h.dir, 'small.md', 'fits');
    const big = await writeFile(h.dir, 'sub/big.md', 'x'.repeat(101));
    const heard: SkippedDocument[] = [];
    h.store.onSkip((file) => heard.push(file));
    const registered = h.store.registerFolder(h.dir);
    expect(registered.map((doc) => doc.name)).toEqual(['small.md']);
    const expected = { path: big, name: 'sub/big.md', root: h.dir, size: 101, maxFileSizeBytes: 100 };
    expect(heard).toEqual([expected]);
    expect(h.store.skipped()).toEqual([expected]);
    await h.store.watchReady();

    await writeFile(h.dir, 'other.md', 'a rescan'); // the folder is rescanned: big.md is not reported again
    await until(() => h.store.list().some((doc) => doc.name === 'other.md'));
    expect(heard).toHaveLength(1);

    await fs.writeFile(big, 'now it fits');
    await fs.rename(big, path.join(h.dir, 'sub', 'fits.md')); // a removal and an addition: rescanned
    await until(() => h.store.list().some((doc) => doc.name === 'sub/fits.md'));
    expect(h.store.skipped()).toEqual([]);

    await fs.writeFile(path.join(h.dir, 'sub', 'fits.md'), 'y'.repeat(500));
    await writeFile(h.dir, 'trigger.md', 'another rescan');
    await until(() => h.store.list().some((doc) => doc.name === 'trigger.md'));
    // Grown past the limit: the rescan leaves it out (no longer listed) and names it again.
    expect(heard.map((file) => [file.name, file.size])).toEqual([
      ['sub/big.md', 101],
      ['sub/fits.md', 500],
    ]);
    expect(h.store.list().map((doc) => doc.name)).not.toContain('sub/fits.md');

    const huge = await writeFile(h.dir, 'huge.md', 'z'.repeat(1000));
    await until(() => heard.length === 3);
    expect(heard[2]).toMatchObject({ path: huge, size: 1000 });
    expect(h.store.skipped().map((file) => file.name)).toEqual(['huge.md', 'sub/fits.md']);
  }, 20_000);
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
