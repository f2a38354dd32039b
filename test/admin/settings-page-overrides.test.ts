// @needs chromium
// Tool overrides edited in the settings page in a real browser (Debian's chromium, playwright-core):
// the new name and description reach a connected client's next tools/list (v2 2026-07-28 and v1)
// after one list_changed, the client calls the tool by its new name, a clashing name is refused
// with the server's message, and Reset brings the registered name back.
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { connectClient, type TestClient } from '../support/clients.js';
import { startAdminServer, TOKEN } from './admin-harness.js';
import { launchChromium, openSettings } from './chromium.js';

let context: BrowserContext;
let closeBrowser: (() => Promise<void>) | undefined;
let server: HttpMcpServer;
let admin: string;
let mcp: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  ({ server, admin, mcp } = await startAdminServer());
  ({ context, close: closeBrowser } = await launchChromium());
}, 40_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await closeBrowser?.();
  await server?.stop();
});

describe('settings page tool overrides (chromium)', () => {
  it('an override saved in the page reaches connected clients; a clash is refused; Reset undoes it', async () => {
    const url = new URL(mcp);
    const modern = await connectClient('v2-modern', new HttpV2(url));
    const v1 = await connectClient('v1', new HttpV1(url));
    clients.push(modern, v1);
    const page = await openSettings(context, admin, TOKEN);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('Live');

    const row = page.locator('[data-tool="echo"]');
    await row.locator('details.override summary').click();
    await row.getByLabel('Name clients see').fill('say');
    await row.getByLabel('Description').fill('Says the text back.');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('[data-tool="echo"] .renamed').textContent()).toBe('Clients see it as say');

    for (const client of [modern, v1]) {
      await client.toolsChanged.waitFor(1, 10_000);
      expect((await client.toolNames()).sort()).toEqual(['fail', 'say', 'whoami']);
      expect((await client.callTool('say', { text: 'hi' })).content[0]?.text).toBe('hi');
    }
    const listed = await fetchListedTool(mcp, 'say');
    expect(listed).toMatchObject({ name: 'say', description: 'Says the text back.' });
    expect(await page.locator('[data-tool="echo"] .description').textContent()).toBe('Says the text back.');

    // A name another tool has: the server refuses, the page says why, nothing changes.
    const whoami = page.locator('[data-tool="whoami"]');
    await whoami.locator('details.override summary').click();
    await whoami.getByLabel('Name clients see').fill('fail');
    await whoami.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#alert').textContent()).toMatch(/a tool named "fail" is registered/);
    expect(server.getToolStates().find((state) => state.tool.name === 'whoami')?.override).toBeUndefined();

    // Reset: the registered name is back for every client (one more list_changed).
    const again = page.locator('[data-tool="echo"]');
    await again.locator('details.override summary').click();
    await again.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => page.locator('[data-tool="echo"] .renamed').count()).toBe(0);
    for (const client of [modern, v1]) {
      await client.toolsChanged.waitFor(2, 10_000);
      expect((await client.toolNames()).sort()).toEqual(['echo', 'fail', 'whoami']);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([modern.toolsChanged.count, v1.toolsChanged.count]).toEqual([2, 2]);
  }, 60_000);
});

/** One entry of `tools/list` as a 2026-07-28 client sees it (a stateless POST with `_meta`). */
async function fetchListedTool(mcp: string, name: string): Promise<Record<string, unknown> | undefined> {
  const { Client } = await import('@modelcontextprotocol/client');
  const client = new Client({ name: 'lister', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new HttpV2(new URL(mcp)));
  try {
    return (await client.listTools()).tools.find((tool) => tool.name === name) as Record<string, unknown> | undefined;
  } finally {
    await client.close();
  }
}
