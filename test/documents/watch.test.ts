import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore, type DocumentChangeEvent } from '../../src/documents/index.js';
import { writeFile } from '../fixtures/document-builders.js';
import { until as waitUntil, useDocumentStore } from './store-harness.js';

const harness = useDocumentStore({ watch: true });
let dir: string;
let store: DocumentStore;
let events: DocumentChangeEvent[];
beforeEach(() => ({ dir, store, events } = harness));

/** Polls until `predicate` holds, failing after 5 s with the events seen. */
const until = (predicate: () => boolean) => waitUntil(predicate, events);

describe('DocumentStore with watch: true', () => {
  it('emits updated when a registered file changes, and serves the new content', async () => {
    const file = await writeFile(dir, 'a.md', 'one');
    const { uri } = store.registerDocument(file);
    await store.read(uri);
    await store.watchReady();
    events.length = 0;
    await fs.writeFile(file, 'two!');
    await until(() => events.some((e) => e.type === 'updated'));
    expect(events).toContainEqual({ type: 'updated', uri });
    expect(await store.read(uri)).toMatchObject([{ text: 'two!' }]);
  });

  it('reports a burst of writes to one file (an editor save) as one updated event', async () => {
    // Writes 20 ms apart: chokidar alone reports several changes; the store's debounce merges them
    // (300 ms here rather than the default 100 so that a loaded machine cannot split the burst).
    const debounced = new DocumentStore({ watch: true, watchDebounceMs: 300 });
    const seen: DocumentChangeEvent[] = [];
    try {
      const root = path.join(dir, 'root');
      const file = await writeFile(root, 'a.md', 'one');
      const [entry] = debounced.registerFolder(root);
      await debounced.watchReady();
      debounced.onChange((event) => seen.push(event));
      for (let i = 0; i < 5; i += 1) {
        await fs.writeFile(file, `draft ${i}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await fs.appendFile(file, ' final');
      const deadline = Date.now() + 5000;
      while (seen.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(seen).toEqual([{ type: 'updated', uri: entry?.uri }]);
      expect(await debounced.read(entry?.uri ?? '')).toMatchObject([{ text: 'draft 4 final' }]);
    } finally {
      await debounced.close();
    }
  });

  it('adds and removes folder entries as files appear and vanish', async () => {
    const root = path.join(dir, 'root');
    await writeFile(root, 'a.md', 'a');
    store.registerFolder(root);
    await store.watchReady();
    events.length = 0;
    await writeFile(root, 'sub/new.md', 'new');
    await writeFile(root, '.hidden.md', 'h');
    await until(() => store.list().some((r) => r.name === 'sub/new.md'));
    expect(events).toContainEqual({ type: 'list_changed' });
    await fs.rm(path.join(root, 'a.md'));
    await until(() => !store.list().some((r) => r.name === 'a.md'));
    expect(store.list().map((r) => r.name)).toEqual(['sub/new.md']);
  });

  it('stops watching on close', async () => {
    const file = await writeFile(dir, 'a.md', 'one');
    store.registerDocument(file);
    await store.watchReady();
    await store.close();
    events.length = 0;
    // close() drops listeners; subscribe again so a still-running watcher would be noticed.
    store.onChange((event) => events.push(event));
    await fs.writeFile(file, 'changed after close');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events).toEqual([]);
  });
});

describe('DocumentStore watch default', () => {
  it('watches by default, as the CLI does (#29 item 5)', async () => {
    const store = new DocumentStore();
    const seen: DocumentChangeEvent[] = [];
    store.onChange((event) => seen.push(event));
    const file = await writeFile(dir, 'a.md', 'one');
    const { uri } = store.registerDocument(file);
    await store.watchReady();
    await fs.writeFile(file, 'two');
    await expect.poll(() => seen, { timeout: 5_000 }).toContainEqual({ type: 'updated', uri });
    await store.close();
  });

  it('watch: false does not report disk changes', async () => {
    const plain = new DocumentStore({ watch: false });
    const seen: DocumentChangeEvent[] = [];
    plain.onChange((event) => seen.push(event));
    const file = await writeFile(dir, 'a.md', 'one');
    plain.registerDocument(file);
    await plain.watchReady();
    await fs.writeFile(file, 'two');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual([{ type: 'list_changed' }]);
    await plain.close();
  });
});
