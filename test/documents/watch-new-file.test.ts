// A new file in a watched folder is one `list_changed` (the store's "added"), not also an `updated`:
// the folder's watcher reports the file's creation and its first writes, and a second report made
// the search index read the new file twice. A later edit is still an `updated`.
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DocumentChangeEvent, DocumentStore } from '../../src/documents/index.js';
import { writeFile } from '../fixtures/document-builders.js';
import { until as waitUntil, useDocumentStore } from './store-harness.js';

const harness = useDocumentStore({ watch: true });
let dir: string;
let store: DocumentStore;
let events: DocumentChangeEvent[];
beforeEach(() => ({ dir, store, events } = harness));

const until = (predicate: () => boolean) => waitUntil(predicate, events);
/** Lets late watcher events arrive: several debounce periods (100 ms each), the way watch.test.ts settles. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 800));

describe('a new file in a watched folder', () => {
  it('is reported once, as added (list_changed), and a later edit as updated', async () => {
    const root = path.join(dir, 'root');
    await writeFile(root, 'a.md', 'a');
    store.registerFolder(root);
    await store.watchReady();
    events.length = 0;
    // Created, then written in two steps: the watcher sees the creation and the writes.
    const file = path.join(root, 'new.md');
    const handle = await fs.open(file, 'w');
    await handle.write('first part, ');
    await handle.write('second part');
    await handle.close();
    await until(() => store.list().some((r) => r.name === 'new.md'));
    await settle();
    const uri = store.list().find((r) => r.name === 'new.md')!.uri;
    expect(events.filter((e) => e.type === 'updated')).toEqual([]);
    expect(events).toContainEqual({ type: 'list_changed' });
    expect(await store.read(uri)).toMatchObject([{ text: 'first part, second part' }]);

    events.length = 0;
    await fs.appendFile(file, ' and an edit');
    await until(() => events.some((e) => e.type === 'updated'));
    expect(events).toEqual([{ type: 'updated', uri }]);
  });

  it('that is written again after it was added is updated', async () => {
    const root = path.join(dir, 'root');
    await fs.mkdir(root, { recursive: true });
    store.registerFolder(root);
    await store.watchReady();
    const file = await writeFile(root, 'late.md', 'v1');
    await until(() => store.list().some((r) => r.name === 'late.md'));
    await settle();
    events.length = 0;
    await fs.writeFile(file, 'version two');
    await until(() => events.some((e) => e.type === 'updated'));
    expect(await store.read(store.list()[0]!.uri)).toMatchObject([{ text: 'version two' }]);
  });
});
