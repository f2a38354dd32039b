// Background work started with a server (the document watcher, the search index, an upstream's connection) waits
// in afterPendingIo (src/lazy-module.ts) until no server is in the middle of start() and the event loop has polled
// for I/O since: a client's first message already waiting on stdin is answered first (#30, W0;
// test/e2e/first-answer.test.ts drives it through real processes).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterPendingIo, holdBackgroundWork } from '../../src/lazy-module.js';

/** Resolves after `count` check phases. */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

afterEach(() => vi.unstubAllGlobals());

describe('afterPendingIo', () => {
  it('resolves after two check phases, not one', async () => {
    let done = false;
    void afterPendingIo().then(() => (done = true));
    await turns(1);
    expect(done).toBe(false);
    await turns(2);
    expect(done).toBe(true);
  });

  it('waits for every start() under way, then for two more check phases', async () => {
    const first = holdBackgroundWork();
    const second = holdBackgroundWork();
    let done = false;
    void afterPendingIo().then(() => (done = true));
    await turns(5);
    expect(done).toBe(false);
    first();
    first(); // idempotent: one release per hold
    await turns(5);
    expect(done).toBe(false);
    second();
    await turns(1);
    expect(done).toBe(false);
    await turns(2);
    expect(done).toBe(true);
  });

  it('uses zero timers where there is no setImmediate', async () => {
    vi.stubGlobal('setImmediate', undefined);
    await expect(afterPendingIo()).resolves.toBeUndefined();
  });

  it('resolves at once where timers are refused (a Worker top level in workerd)', async () => {
    const refuse = () => {
      throw new Error('Disallowed operation called within global scope.');
    };
    vi.stubGlobal('setImmediate', refuse);
    vi.stubGlobal('setTimeout', refuse);
    await expect(afterPendingIo()).resolves.toBeUndefined();
  });
});
