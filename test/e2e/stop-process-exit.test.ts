/**
 * `stop()` awaited at an app's top level settles even when a tool that ignores its aborted signal holds nothing
 * (a promise that never settles): stop()'s bounded waits for aborted calls hold the event loop, or Node would end
 * the app with exit code 13 (an unsettled top-level await) before stop() returned. Runs the built dist/.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runFixture } from '../support/fixture-process.js';

const APP = fileURLToPath(new URL('../fixtures/stop-with-stuck-tool.mjs', import.meta.url));

describe('stop() at the top level with a stuck tool in flight', () => {
  it('settles: the call is answered as shut down, the stuck tool is named in a warning, and the process exits 0', async () => {
    const { code, signal, out, err } = await runFixture(APP);
    expect({ code, signal }, err).toEqual({ code: 0, signal: null });
    expect(out).toBe(
      'stopped; the call got an error (The server is shutting down; the call did not complete.); warned: true\n',
    );
  }, 30_000);
});
