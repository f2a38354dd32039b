/* global performance */
// The per-call cost the admin router adds: what its `toolCallFinished` listener (statistics,
// SSE batching when a page is open) costs per finished call, in ns, against no listener.
// A micro-benchmark that load on the machine hardly moves (unlike W1/W2 calls/s).
//   npm run build && node bench/admin-stats-cost.mjs
import express from 'express';
import process from 'node:process';
import { HttpMcpServer } from '../dist/index.js';
import { adminRouter } from '../dist/public/admin.js';

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const N = 2_000_000;
const event = { name: 'echo', requestId: 1, sessionId: 's', durationMs: 0.42, isError: false };

function perCallNs(server) {
  for (let i = 0; i < 200_000; i += 1) server.events.safeEmit('toolCallFinished', event); // warm-up
  const best = [];
  for (let round = 0; round < 5; round += 1) {
    const t0 = performance.now();
    for (let i = 0; i < N; i += 1) server.events.safeEmit('toolCallFinished', event);
    best.push(((performance.now() - t0) * 1e6) / N);
  }
  return Math.min(...best);
}

const bare = new HttpMcpServer({ name: 'b', version: '1' }, { logger: silent });
const withAdmin = new HttpMcpServer({ name: 'a', version: '1' }, { logger: silent });
express().use('/admin', adminRouter(withAdmin, { token: 'bench-admin-token-0123456789' }));
const off = perCallNs(bare);
const on = perCallNs(withAdmin);
process.stdout.write(
  `toolCallFinished emit: ${off.toFixed(0)} ns without the admin router, ${on.toFixed(0)} ns with it ` +
    `(+${(on - off).toFixed(0)} ns per tool call, best of 5 x ${N.toLocaleString()})\n`,
);
