// What the dist/lazy/ entries are loaded through (src/lazy-module.ts): one shared load, and a failed one is
// tried again (a file put back after a broken deploy) instead of failing for the rest of the process.
import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../src/lazy-module.js';

describe('loadOnce', () => {
  it('shares one load while it is pending and once it is done', async () => {
    let loads = 0;
    const load = loadOnce(async () => ++loads);
    const [a, b] = await Promise.all([load(), load()]);
    expect([a, b, await load(), loads]).toEqual([1, 1, 1, 1]);
  });

  it('forgets a failed load: the next call tries again', async () => {
    let loads = 0;
    const load = loadOnce(async () => {
      loads += 1;
      if (loads === 1) throw new Error('Cannot find module dist/lazy/x.js');
      return 'loaded';
    });
    await expect(load()).rejects.toThrow('Cannot find module');
    expect(await load()).toBe('loaded');
    expect(await load()).toBe('loaded');
    expect(loads).toBe(2);
  });
});
