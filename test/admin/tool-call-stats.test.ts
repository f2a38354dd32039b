import { describe, expect, it } from 'vitest';
import { ToolCallStats } from '../../src/admin/tool-call-stats.js';

describe('ToolCallStats', () => {
  it('counts calls and errors and gives p50/p95 of the recent durations', () => {
    const stats = new ToolCallStats();
    expect(stats.of('a')).toEqual({ count: 0, errors: 0, aborted: 0, p50Ms: null, p95Ms: null, lastCallAt: null });
    for (let ms = 1; ms <= 100; ms += 1) stats.record('a', ms, ms % 10 === 0 ? 'error' : 'ok', 1_000_000);
    expect(stats.of('a')).toEqual({ count: 100, errors: 10, aborted: 0, p50Ms: 50, p95Ms: 95, lastCallAt: 1_000_000 });
  });

  it('keeps the last 512 durations for the percentiles', () => {
    const stats = new ToolCallStats();
    for (let i = 0; i < 512; i += 1) stats.record('a', 1000, 'ok');
    for (let i = 0; i < 512; i += 1) stats.record('a', 1, 'ok');
    expect(stats.of('a')).toMatchObject({ count: 1024, p50Ms: 1, p95Ms: 1 });
  });

  it('has a 60-second timeline of calls and errors, oldest first, forgetting older seconds', () => {
    const stats = new ToolCallStats();
    const t = 1_700_000_000_000;
    stats.record('a', 1, 'ok', t);
    stats.record('a', 1, 'error', t + 10);
    stats.record('b', 1, 'ok', t + 5_000);
    let timeline = stats.timeline(t + 5_500);
    expect(timeline).toHaveLength(60);
    expect(timeline.at(-1)).toEqual({ t: t + 5_000, calls: 1, errors: 0 });
    expect(timeline.at(-6)).toEqual({ t, calls: 2, errors: 1 });
    timeline = stats.timeline(t + 61_000);
    expect(timeline.reduce((sum, point) => sum + point.calls, 0)).toBe(1); // only the call at +5 s is still in range
    stats.record('a', 1, 'ok', t + 60_000); // same slot as t: the old second is reset
    expect(stats.timeline(t + 60_000).at(-1)).toEqual({ t: t + 60_000, calls: 1, errors: 0 });
  });
});
