/**
 * DocumentSearchIndex with `background: true`: built without a search, changes applied as they come,
 * searches with `maxWaitMs` answering from what is built (and saying so), stopped by the store's close.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentStore } from '../../src/documents/index.js';
import { DocumentSearchIndex } from '../../src/documents/search-index.js';
import { writeFile } from '../fixtures/document-builders.js';
import { recordingView, until, useDocumentStore } from './store-harness.js';

const harness = useDocumentStore({ watch: true });
let dir: string;
let store: DocumentStore;
beforeEach(() => ({ dir, store } = harness));

/** Searches without waiting until the index reports nothing pending (the background work finishing), at most 5 s. */
async function settled(index: DocumentSearchIndex, query: string) {
  let results = await index.search(query, { maxWaitMs: 0 });
  // Poll with a timer between tries: a loop of microtasks alone would starve the reads it waits for.
  for (const deadline = Date.now() + 15_000; results.pendingDocuments > 0 && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    results = await index.search(query, { maxWaitMs: 0 });
  }
  return results;
}

async function folderOf(count: number): Promise<string> {
  const root = path.join(dir, 'root');
  for (let i = 0; i < count; i += 1) await writeFile(root, `note-${i}.md`, `note ${i} about granite`);
  return root;
}

/** Eight HTML pages (each read converts) and a background index whose first reads have started and are held. */
async function heldBuildOfPages() {
  const root = path.join(dir, 'pages');
  for (let i = 0; i < 8; i += 1) await writeFile(root, `page-${i}.html`, `<h1>Page ${i}</h1><p>granite</p>`);
  store.registerFolder(root);
  const { view, reads, hold } = recordingView(store);
  const release = hold();
  const index = new DocumentSearchIndex(view, { background: true });
  await until(() => reads.length > 0, reads);
  return { index, reads, release };
}

describe('DocumentSearchIndex in the background', () => {
  it('builds the index without a search, then answers at once', async () => {
    store.registerFolder(await folderOf(20));
    const { view, reads } = recordingView(store);
    const index = new DocumentSearchIndex(view, { background: true });
    try {
      await until(() => reads.length === 20, reads); // every read started by the index itself
      const results = await settled(index, 'granite');
      expect(results).toMatchObject({ totalMatches: 20, indexedDocuments: 20, pendingDocuments: 0 });
    } finally {
      index.close();
    }
  });

  it('answers a search made during the build from what is indexed and says how much is pending', async () => {
    store.registerFolder(await folderOf(12));
    const { view, reads, hold } = recordingView(store);
    const release = hold();
    const index = new DocumentSearchIndex(view, { background: true });
    try {
      await until(() => reads.length > 0, reads);
      const partial = await index.search('granite', { maxWaitMs: 50 });
      expect(partial.pendingDocuments).toBe(12);
      expect(partial.indexedDocuments).toBe(0);
      release();
      const full = await index.search('granite'); // no maxWaitMs: waits until current
      expect(full).toMatchObject({ totalMatches: 12, indexedDocuments: 12, pendingDocuments: 0 });
    } finally {
      release();
      index.close();
    }
  });

  it('reports the coverage of the index its matches came from, not of a later moment', async () => {
    const root = path.join(dir, 'root');
    await writeFile(root, 'a-first.md', 'first note about granite');
    for (let i = 0; i < 4; i += 1) await writeFile(root, `b-${i}.md`, `note ${i} about granite`);
    const [first] = store.registerFolder(root);
    const { view, hold } = recordingView(store);
    // The index reads the first document at once and the others only once a search reads its hit;
    // that hit's read then takes 100 ms, in which the index finishes the others.
    const release = hold();
    let firstReads = 0;
    const search = new DocumentSearchIndex(
      {
        ...view,
        readFull: async (uri: string) => {
          if (uri !== first?.uri) return view.readFull(uri);
          firstReads += 1;
          if (firstReads > 1) {
            release();
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return store.readFull(uri);
        },
      },
      { background: true },
    );
    try {
      // Until the first document is indexed (a query matching nothing reads no hit).
      for (let tries = 0; (await search.search('nothing-matches', { maxWaitMs: 0 })).indexedDocuments < 1; tries++) {
        if (tries > 200) throw new Error('the first document was never indexed');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const partial = await search.search('granite', { maxWaitMs: 0 });
      expect(partial.totalMatches + partial.pendingDocuments).toBe(5);
      expect(partial.indexedDocuments).toBe(partial.totalMatches);
    } finally {
      release();
      search.close();
    }
  });

  it('applies an edit and a new file as they come, without waiting for a search', async () => {
    const root = await folderOf(3);
    const [first] = store.registerFolder(root);
    await store.watchReady();
    const { view, reads } = recordingView(store);
    const index = new DocumentSearchIndex(view, { background: true });
    try {
      await until(() => reads.length === 3, reads);
      await fs.writeFile(first?.path ?? '', 'now about obsidian');
      await writeFile(root, 'added.md', 'a new note about basalt');
      // The new file may be read twice: the watcher can report it as changed as well as added.
      const added = (uri: string) => uri.endsWith('/added.md');
      await until(() => reads.filter((uri) => uri === first?.uri).length === 2 && reads.some(added), reads);
      const edited = await settled(index, 'obsidian');
      expect(edited).toMatchObject({ totalMatches: 1, pendingDocuments: 0 });
      expect(edited.hits[0]?.uri).toBe(first?.uri);
      expect((await index.search('basalt', { maxWaitMs: 0 })).totalMatches).toBe(1);
      expect((await index.search('granite', { maxWaitMs: 0 })).totalMatches).toBe(2);
    } finally {
      index.close();
    }
  });

  it('stops reading when the store closes', async () => {
    store.registerFolder(await folderOf(30));
    const { view, reads, hold } = recordingView(store);
    const release = hold();
    const index = new DocumentSearchIndex(view, { background: true });
    await until(() => reads.length > 0, reads);
    await store.close();
    release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Only the reads already started when the store closed (at most the index's concurrency, 4).
    expect(reads.length).toBeLessThanOrEqual(4);
    index.close();
  });

  it('starts no conversion for the reads already under way when the store closed', async () => {
    const { index, reads, release } = await heldBuildOfPages();
    const conversions = vi.spyOn(store.conversions, 'convert');
    await store.close();
    release(); // the reads under way go on to the store now: they must stop there
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reads.length).toBeGreaterThan(0);
    expect(conversions).not.toHaveBeenCalled();
    // The store is still usable after close(): a search made now reads (and converts) again.
    const results = await index.search('granite');
    expect(results).toMatchObject({ indexedDocuments: 8, pendingDocuments: 0, unreadableDocuments: 0 });
    index.close();
  });

  // A search that answered at maxWaitMs leaves its refresh waiting for the background one; when the store
  // closes, that refresh must end too, not start reading (and converting) with the finished call's signal.
  it('a search that answered before the build ended starts no read or conversion after the store closed', async () => {
    const { index, reads, release } = await heldBuildOfPages();
    const early = await index.search('granite', { maxWaitMs: 20 });
    expect(early.pendingDocuments).toBe(8);
    const conversions = vi.spyOn(store.conversions, 'convert');
    await store.close();
    const readsAtClose = reads.length;
    release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(conversions).not.toHaveBeenCalled();
    expect(reads.length).toBe(readsAtClose);
    // A search made after close() still reads what was left, as documented.
    const results = await index.search('granite');
    expect(results).toMatchObject({ indexedDocuments: 8, pendingDocuments: 0, unreadableDocuments: 0 });
    index.close();
  });
});
