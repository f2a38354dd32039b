/**
 * `createDocumentTools(store, { indexInBackground: true })` and `stop()`: a background index build under way when
 * the server stops starts no conversion process afterwards (the reads it had started stop at the store instead of
 * converting), so nothing of it keeps the app alive. A child process runs the built dist/ (npm test builds first).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runFixture } from '../support/fixture-process.js';

const APP = fileURLToPath(new URL('../fixtures/stop-during-background-index.mjs', import.meta.url));

describe('stop() right after start() with the index building in the background', () => {
  it('forks no conversion process after stop(), and the process exits as soon as the app is done', async () => {
    const { code, signal, out, err } = await runFixture(APP);
    expect({ code, signal }, err).toEqual({ code: 0, signal: null });
    const [, forked, ms] = /^forked after stop: (\d+); exited (\d+) ms later\n$/.exec(out) ?? [];
    expect(forked, out).toBe('0');
    expect(Number(ms), out).toBeLessThan(100); // a conversion started after stop() held it ~150 ms here (PDF)
  }, 30_000);
});
