// @needs redis-server chromium
// The settings page of one replica of a two-replica cluster (real redis-server, real chromium):
// the Sessions panel lists the other replica's sessions too (docs/scaling.md), and says so when
// Redis cannot be reached.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster } from '../../src/cluster/create-cluster.js';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { startAdminServer, TOKEN } from '../admin/admin-harness.js';
import { horizontalOverflow, launchChromium, openSettings } from '../admin/chromium.js';
import { openSession } from '../e2e/http-helpers.js';
import { RedisServer } from '../support/services.js';
import { silentLogger } from './replicas.js';

let redis: RedisServer;
let context: BrowserContext;
let closeBrowser: (() => Promise<void>) | undefined;
const servers: HttpMcpServer[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
  mkdirSync(path.resolve('test-results/settings-page'), { recursive: true });
  ({ context, close: closeBrowser } = await launchChromium());
}, 40_000);

afterAll(async () => {
  await closeBrowser?.();
  await Promise.allSettled(servers.map((server) => server.stop()));
  await redis?.stop();
});

describe('settings page on a cluster replica (chromium, redis-server)', () => {
  it("shows every replica's sessions, with the replica; says when Redis is unreachable", async () => {
    const join = (replicaId: string) =>
      createCluster({ redis: redis.url, prefix: 'page-cluster', replicaId, heartbeatMs: 1_000, logger: silentLogger });
    const a = await startAdminServer({ cluster: await join('ra') });
    const b = await startAdminServer({ cluster: await join('rb') });
    servers.push(a.server, b.server);
    const onA = await openSession(a.mcp);
    const onB = await openSession(b.mcp);

    const page = await openSettings(context, a.admin, TOKEN);
    const rows = page.locator('#sessions tbody tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    const rowOf = (id: string) => page.locator('#sessions tbody tr', { hasText: id });
    await expect.poll(() => rowOf(onB).locator('td.replica').textContent()).toBe('rb');
    expect(await rowOf(onA).locator('td.replica').textContent()).toBe('ra');
    expect(
      await rowOf(onA)
        .getByRole('button', { name: `Close session ${onA}` })
        .count(),
    ).toBe(1);
    expect(await rowOf(onB).getByRole('button').count()).toBe(0); // closed on its own replica
    expect(await rowOf(onB).textContent()).toContain('close it on rb');
    expect(await page.locator('#sessions-scope').textContent()).toContain('1 on other replicas');
    expect(await page.locator('#cluster-status').textContent()).toContain('replica ra, Redis connected');

    // A session opened later on the other replica shows up without reloading.
    const later = await openSession(b.mcp);
    await expect.poll(() => rowOf(later).count(), { timeout: 10_000 }).toBe(1);

    // On a phone the extra Replica column and the cluster line still fit.
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: path.resolve('test-results/settings-page/cluster-390.png'), fullPage: true });

    await redis.stop();
    const status = page.locator('#cluster-status');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('Redis cannot be reached');
    expect(await status.getAttribute('class')).toContain('down');
    await expect.poll(() => rows.count()).toBe(1); // only this replica's session is known now
    await page.close();
  }, 60_000);
});
