/**
 * `whenConnected()` and the process's life: a pending wait holds the process until it settles (bounded by its
 * `timeoutMs`), so an app that awaits it at its top level gets the documented rejection rather than exit code 13
 * (an unsettled top-level await: the upstream's retry timer is unref'd); an upstream nobody waits on never holds
 * the process, and `stop()` ends a pending wait at once. Child processes run the built dist/ (npm test builds first).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runFixture } from '../support/fixture-process.js';

const APP = fileURLToPath(new URL('../fixtures/when-connected-exit.mjs', import.meta.url));

describe('whenConnected() at the top level of an app that starts no transport', () => {
  it('rejects with UPSTREAM_UNAVAILABLE after timeoutMs, and the process then exits on its own with code 0', async () => {
    const { code, signal, out, err, ms } = await runFixture(APP, ['await']);
    expect({ code, signal }, err).toEqual({ code: 0, signal: null });
    expect(out).toBe('UPSTREAM_UNAVAILABLE after failures\n');
    expect(ms).toBeLessThan(15_000); // the retries (every 100 ms at most) do not keep it alive afterwards
  }, 30_000);

  it('a wait still pending when stop() is awaited is rejected at once, and the process exits (not after timeoutMs)', async () => {
    const { code, signal, out, err, ms } = await runFixture(APP, ['stop']);
    expect({ code, signal }, err).toEqual({ code: 0, signal: null });
    expect(out).toBe('stopped; the wait: UPSTREAM_UNAVAILABLE\n');
    expect(ms).toBeLessThan(20_000); // its timeoutMs is 60 s: the killer (20 s) would end it first
  }, 30_000);

  it('an upstream nobody waits on, never stopped, does not keep the process alive', async () => {
    const { code, signal, out, err } = await runFixture(APP, ['idle']);
    expect({ code, signal }, err).toEqual({ code: 0, signal: null });
    expect(out).toBe('added\n');
  }, 30_000);
});
