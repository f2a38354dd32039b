/* global performance */
// Listeners for the toggle fan-out workloads (W5, W7): legacy sessions holding a GET stream and
// 2026-07-28 subscriptions/listen streams, each counting notifications/tools/list_changed.
import { bodies, legacyHeaders, modernHeaders } from './http-driver.mjs';
import { runConcurrent, sleep } from './stats.mjs';

/** Counts, per client, the tools/list_changed received and when the first one arrived. */
export class FanoutCounter {
  constructor(total) {
    this.counts = new Array(total).fill(0);
    this.arrivals = new Array(total).fill(0);
    this.remaining = total;
    this.done = new Promise((resolve) => (this.allNotified = resolve));
  }

  onMessage(client) {
    return (message) => {
      if (message.method !== 'notifications/tools/list_changed') return;
      this.counts[client] += 1;
      if (this.counts[client] === 1) {
        this.arrivals[client] = performance.now();
        if ((this.remaining -= 1) === 0) this.allNotified();
      }
    };
  }

  /** After the toggle at `t0`: waits (at most 30 s) for everyone, then `quietMs` more; the figures. */
  async result(t0, quietMs) {
    const timedOut = await Promise.race([this.done.then(() => false), sleep(30_000).then(() => true)]);
    await sleep(quietMs);
    const times = this.arrivals.filter((t) => t > 0).map((t) => t - t0);
    return {
      clients: this.counts.length,
      lastMs: timedOut ? NaN : Math.max(...times),
      times,
      notified: this.counts.filter((c) => c > 0).length,
      exactlyOnce: this.counts.filter((c) => c === 1).length,
    };
  }
}

/**
 * Opens `legacy` sessions with a GET stream and `modern` listen streams on `driver`, counted as
 * clients `first`, `first + 1`, ... of `counter`. Resolves once every listen stream is
 * acknowledged; returns the stream closers.
 */
export async function openListeners(driver, counter, { first, legacy, modern }) {
  const closers = [];
  const sessions = [];
  await runConcurrent(100, legacy, async () => sessions.push(await driver.openSession()));
  await runConcurrent(50, legacy, async (_, i) =>
    closers.push(
      await driver.stream({ method: 'GET', headers: legacyHeaders(sessions[i]) }, counter.onMessage(first + i)),
    ),
  );
  let acknowledged = 0;
  await runConcurrent(50, modern, async (_, i) => {
    const handler = counter.onMessage(first + legacy + i);
    const stream = { method: 'POST', headers: modernHeaders('subscriptions/listen'), body: bodies.listen(i) };
    closers.push(
      await driver.stream(stream, (message) => {
        if (message.method === 'notifications/subscriptions/acknowledged') acknowledged += 1;
        handler(message);
      }),
    );
  });
  while (acknowledged < modern) await sleep(20);
  return closers;
}
