/**
 * A watched folder costs one OS watch per folder, not per file, and still reports every kind of change.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
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

/** inotify watches this process holds now (Linux: the `inotify wd:` lines of its inotify descriptors). */
function inotifyWatches(): number {
  let count = 0;
  for (const fd of fs.readdirSync('/proc/self/fdinfo')) {
    try {
      count += (fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').match(/^inotify wd:/gm) ?? []).length;
    } catch {
      // closed meanwhile
    }
  }
  return count;
}

/** Polls until `predicate` holds, failing after 5 s with the events seen. */
const until = (predicate: () => boolean) => waitUntil(predicate, events);

describe('watching a folder', () => {
  it('holds one watch per folder, not one per file', async () => {
    const root = path.join(dir, 'root');
    for (let i = 0; i < 60; i += 1) await writeFile(root, `${i % 2 === 0 ? 'a' : 'b'}/note-${i}.md`, `note ${i}`);
    const before = inotifyWatches();
    expect(store.registerFolder(root)).toHaveLength(60);
    await store.watchReady();
    // root, a and b (chokidar may add one for the root's parent): far below the 60 files.
    expect(inotifyWatches() - before).toBeLessThanOrEqual(4);
  });

  it('reports an edit, an atomic save (write then rename over) and a new file in a subfolder', async () => {
    const root = path.join(dir, 'root');
    const edited = await writeFile(root, 'sub/edited.md', 'one');
    const saved = await writeFile(root, 'sub/saved.md', 'one');
    const [editedEntry, savedEntry] = store.registerFolder(root);
    await store.watchReady();
    events.length = 0;
    await fsp.writeFile(edited, 'two');
    await until(() => events.some((e) => e.type === 'updated' && e.uri === editedEntry?.uri));
    expect(await store.read(editedEntry?.uri ?? '')).toMatchObject([{ text: 'two' }]);

    const temp = path.join(root, 'sub', '.saved.md.tmp');
    await fsp.writeFile(temp, 'saved atomically');
    await fsp.rename(temp, saved);
    await until(() => events.some((e) => e.type === 'updated' && e.uri === savedEntry?.uri));
    expect(await store.read(savedEntry?.uri ?? '')).toMatchObject([{ text: 'saved atomically' }]);
    expect(store.list().map((entry) => entry.name)).toEqual(['sub/edited.md', 'sub/saved.md']);

    await writeFile(root, 'sub/deeper/new.md', 'new');
    await until(() => store.list().some((entry) => entry.name === 'sub/deeper/new.md'));
    await fsp.rm(edited);
    await until(() => !store.list().some((entry) => entry.name === 'sub/edited.md'));
    expect(events.filter((e) => e.type === 'updated' && e.uri === editedEntry?.uri)).toHaveLength(1);
  });
});
