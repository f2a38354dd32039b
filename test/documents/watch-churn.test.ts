/**
 * The watcher under churn (#10): a file renamed every 15 ms for 5 s. Without a maximum wait the debounce
 * would postpone the report until the churn stops; with `watchMaxWaitMs` listeners are told at least that
 * often, once per batch, and every list they read then is consistent (the stable files, exactly one
 * churning file, no duplicates).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFile } from '../fixtures/document-builders.js';
import { useDocumentStore } from './store-harness.js';

const MAX_WAIT_MS = 1000;
/** Extra delay allowed per interval for chokidar's own latency and a loaded machine. */
const SLACK_MS = 1000;
const CHURN_MS = 5000;

describe('watcher under churn', () => {
  const h = useDocumentStore({ watch: true, watchDebounceMs: 100, watchMaxWaitMs: MAX_WAIT_MS });

  it('reports at least every max-wait interval while files are renamed every 15 ms, with consistent lists', async () => {
    for (const name of ['stable-a.md', 'stable-b.md']) await writeFile(h.dir, name, `# ${name}`);
    await writeFile(h.dir, 'churn-0.md', '# churn');
    h.store.registerFolder(h.dir);
    await h.store.watchReady();

    const seen: Array<{ at: number; names: string[] }> = [];
    h.store.onChange((event) => {
      if (event.type === 'list_changed') seen.push({ at: Date.now(), names: h.store.list().map((doc) => doc.name) });
    });
    const start = Date.now();
    let current = 0;
    while (Date.now() - start < CHURN_MS) {
      const next = current + 1;
      await fs.rename(path.join(h.dir, `churn-${current}.md`), path.join(h.dir, `churn-${next}.md`));
      current = next;
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const end = Date.now();
    await new Promise((resolve) => setTimeout(resolve, MAX_WAIT_MS + SLACK_MS));

    const during = seen.filter((entry) => entry.at <= end + SLACK_MS);
    expect(during.length).toBeGreaterThanOrEqual(Math.floor(CHURN_MS / (MAX_WAIT_MS + SLACK_MS)));
    const times = [start, ...seen.map((entry) => entry.at)].filter((at) => at <= end);
    for (let i = 1; i < times.length; i += 1)
      expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(MAX_WAIT_MS + SLACK_MS);
    expect(end - times[times.length - 1]!).toBeLessThanOrEqual(MAX_WAIT_MS + SLACK_MS);

    for (const { names } of seen) {
      expect(new Set(names).size).toBe(names.length);
      expect(names.filter((name) => name.startsWith('stable-')).sort()).toEqual(['stable-a.md', 'stable-b.md']);
      expect(names.filter((name) => name.startsWith('churn-'))).toHaveLength(1);
    }
    // Once the churn stops, the last list is the folder as it is.
    expect(seen.at(-1)?.names.sort()).toEqual([`churn-${current}.md`, 'stable-a.md', 'stable-b.md']);
  }, 20_000);
});
