/**
 * `stop()` closes the conversion pool (#10): a child process whose server is stopped while a conversion
 * process spins on a conversion exits on its own (nothing keeps the event loop alive), and the read in
 * flight is answered with an error rather than left hanging. An idle conversion process does not keep a
 * process alive either, nor does a folder's watcher, even when the store is never closed. Uses the built dist/ (npm test builds first).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runFixture } from '../support/fixture-process.js';

const CHILD = fileURLToPath(new URL('../fixtures/stop-during-conversion.mjs', import.meta.url));
const IDLE = fileURLToPath(new URL('../fixtures/idle-conversion-exit.mjs', import.meta.url));
const CLOSE = fileURLToPath(new URL('../fixtures/stop-after-conversion.mjs', import.meta.url));

describe('stop() and the conversion pool', () => {
  it('lets the process exit while a conversion was running', async () => {
    const { code, signal, out, err } = await runFixture(CHILD);
    expect({ code, signal }, err).toEqual({ code: 0, signal: null });
    expect(out).toMatch(/^stopped; the read answered: .*the conversion pool is closed/);
  }, 30_000);

  it('lets the process exit with an idle conversion process, a watched folder and the store never closed', async () => {
    const { code, signal, out, err, ms } = await runFixture(IDLE);
    expect({ code, signal }, err).toEqual({ code: 0, signal: null });
    expect(out).toBe('# Converted elsewhere\n');
    expect(ms).toBeLessThan(15_000); // the idle process is ended after 30 s: exiting sooner proves it is unref'd
  }, 30_000);

  it("settles a close() awaited at the top level after a conversion (the idle process is unref'd)", async () => {
    const { code, signal, out, err } = await runFixture(CLOSE);
    expect({ code, signal }, err).toEqual({ code: 0, signal: null });
    expect(out).toBe('# Converted elsewhere\nclosed\n');
  }, 30_000);
});
