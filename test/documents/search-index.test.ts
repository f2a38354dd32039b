import fs from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DocumentStore } from '../../src/documents/index.js';
import { DocumentSearchIndex } from '../../src/documents/search-index.js';
import { makeCorruptPdf, makePdf, PNG_1X1, writeFile } from '../fixtures/document-builders.js';
import { useDocumentStore } from './store-harness.js';

const harness = useDocumentStore({ watch: true });
let dir: string;
let store: DocumentStore;
beforeEach(() => ({ dir, store } = harness));

/** Polls `check` until it passes (watch events arrive asynchronously), failing after 5 s. */
async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('DocumentSearchIndex', () => {
  it('finds a word that occurs only on page 3 of a PDF and says which page', async () => {
    await writeFile(
      dir,
      'report.pdf',
      await makePdf(['Quarterly overview', 'Revenue by region', 'The zebrafish cohort grew', 'Appendix tables']),
    );
    await writeFile(dir, 'notes.md', '# Notes\n\nNothing about fish here.');
    store.registerFolder(dir);
    const index = new DocumentSearchIndex(store);
    const results = await index.search('zebrafish');
    expect(results.totalMatches).toBe(1);
    expect(results.indexedDocuments).toBe(2);
    const [hit] = results.hits;
    expect(hit).toMatchObject({ name: 'report.pdf', page: 3, pages: [3], matchedTerms: ['zebrafish'] });
    expect(hit?.uri).toBe(store.list().find((doc) => doc.name === 'report.pdf')?.uri);
    expect(hit?.snippet).toContain('The zebrafish cohort grew');
    expect(hit?.snippet).not.toContain('--- page');
    expect(hit?.score).toBeGreaterThan(0);
    index.close();
  });

  it('ranks documents matching more query words higher and honours the limit', async () => {
    await writeFile(dir, 'both.md', 'solar panels and wind turbines');
    await writeFile(dir, 'solar.md', 'solar panels only');
    await writeFile(dir, 'none.md', 'gardening tips');
    store.registerFolder(dir);
    const index = new DocumentSearchIndex(store);
    const all = await index.search('solar wind');
    expect(all.hits.map((hit) => hit.name)).toEqual(['both.md', 'solar.md']);
    const one = await index.search('solar wind', { limit: 1 });
    expect(one.hits.map((hit) => hit.name)).toEqual(['both.md']);
    expect(one.totalMatches).toBe(2);
    expect((await index.search('garden')).hits.map((hit) => hit.name)).toEqual(['none.md']); // prefix
    expect((await index.search('turbnes')).hits.map((hit) => hit.name)).toEqual(['both.md']); // typo
    index.close();
  });

  it('cuts a snippet around the hit in a long text', async () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(40);
    await writeFile(dir, 'long.txt', `${filler}the needle sits here ${filler}`);
    store.registerFolder(dir);
    const index = new DocumentSearchIndex(store);
    const [hit] = (await index.search('needle')).hits;
    expect(hit?.snippet).toMatch(/^….*the needle sits here.*…$/);
    expect(hit?.snippet.length).toBeLessThanOrEqual(170);
    index.close();
  });

  it('skips binary documents and counts unreadable ones', async () => {
    await writeFile(dir, 'pic.png', PNG_1X1);
    await writeFile(dir, 'broken.pdf', makeCorruptPdf());
    await writeFile(dir, 'ok.md', 'readable words');
    store.registerFolder(dir);
    const index = new DocumentSearchIndex(store);
    const results = await index.search('readable');
    expect(results).toMatchObject({ indexedDocuments: 1, unreadableDocuments: 1, totalMatches: 1 });
    index.close();
  });

  it('is built lazily and kept current as files are added, edited and removed', async () => {
    const root = `${dir}/root`;
    await writeFile(root, 'a.md', 'apples');
    store.registerFolder(root);
    await store.watchReady();
    const index = new DocumentSearchIndex(store);
    let reads = 0;
    const read = store.readFull.bind(store);
    store.readFull = (uri) => ((reads += 1), read(uri));
    expect(reads).toBe(0); // nothing read before the first search
    expect((await index.search('apples')).hits).toHaveLength(1);
    const afterBuild = reads;
    await index.search('apples');
    expect(reads).toBe(afterBuild + 1); // only the snippet read: nothing re-indexed

    await writeFile(root, 'b.md', 'bananas');
    await eventually(async () => expect((await index.search('bananas')).hits.map((h) => h.name)).toEqual(['b.md']));

    await fs.writeFile(`${root}/a.md`, 'cherries now');
    await eventually(async () => expect((await index.search('cherries')).hits.map((h) => h.name)).toEqual(['a.md']));
    expect((await index.search('apples')).hits).toEqual([]);

    await fs.rm(`${root}/b.md`);
    await eventually(async () => expect((await index.search('bananas')).hits).toEqual([]));
    index.close();
  });

  it('re-indexes a document registered again under the same URI', async () => {
    const file = await writeFile(dir, 'doc.md', 'first version');
    store.registerDocument(file);
    const index = new DocumentSearchIndex(store);
    expect((await index.search('first')).hits).toHaveLength(1);
    await fs.writeFile(file, 'second version');
    store.registerDocument({ path: file, name: 'renamed.md' });
    const results = await index.search('second');
    expect(results.hits.map((hit) => hit.name)).toEqual(['renamed.md']);
    index.close();
  });

  it('stops on an aborted signal and finishes the work on the next search', async () => {
    for (let i = 0; i < 20; i += 1) await writeFile(dir, `f${i}.md`, `word${i} common`);
    store.registerFolder(dir);
    const index = new DocumentSearchIndex(store, { concurrency: 1 });
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(index.search('common', { signal: controller.signal })).rejects.toThrow('stop');
    expect((await index.search('common', { limit: 50 })).totalMatches).toBe(20);
    index.close();
  });

  it('runs concurrent searches against one build', async () => {
    await writeFile(dir, 'a.md', 'shared term');
    store.registerFolder(dir);
    const index = new DocumentSearchIndex(store);
    const [first, second] = await Promise.all([index.search('shared'), index.search('term')]);
    expect(first.hits).toHaveLength(1);
    expect(second.hits).toHaveLength(1);
    index.close();
  });
});
