// @needs chromium
// The settings page in a real browser: Debian's chromium driven by playwright-core.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { connectClient, type TestClient } from '../support/clients.js';
import { startAdminServer, TOKEN } from './admin-harness.js';
import { launchChromium, openSettings } from './chromium.js';

const SHOTS = path.resolve('test-results/settings-page');

let context: BrowserContext;
let closeBrowser: (() => Promise<void>) | undefined;
let server: HttpMcpServer;
let admin: string;
let mcp: string;

beforeAll(async () => {
  ({ server, admin, mcp } = await startAdminServer());
  mkdirSync(SHOTS, { recursive: true });
  ({ context, close: closeBrowser } = await launchChromium());
}, 40_000);

afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

const openPage = (token = TOKEN): Promise<Page> => openSettings(context, admin, token);

describe('settings page (chromium)', () => {
  let client: TestClient;
  let transport: HttpV1;

  beforeAll(async () => {
    transport = new HttpV1(new URL(mcp));
    client = await connectClient('v1', transport);
  });
  afterAll(async () => {
    await client?.close().catch(() => {});
  });

  it('flips a tool off: the switch, the connected client and a second page all follow', async () => {
    const first = await openPage();
    const second = await openPage();
    const echo = first.getByRole('switch', { name: 'echo', exact: true });
    await expect.poll(() => echo.isChecked()).toBe(true);
    await expect.poll(() => second.getByRole('switch', { name: 'echo', exact: true }).isChecked()).toBe(true);
    // The token left the address bar once read.
    expect(first.url()).not.toContain('token');
    await expect.poll(() => first.locator('#connection').textContent()).toBe('Live');
    await expect.poll(() => second.locator('#connection').textContent()).toBe('Live');
    await first.getByRole('group', { name: 'basics' }).waitFor();
    await first.screenshot({ path: path.join(SHOTS, 'before-toggle.png'), fullPage: true });

    await echo.click();
    // (a) the switch reflects the new state after the server confirmed it
    await expect.poll(() => echo.isChecked()).toBe(false);
    await expect.poll(() => echo.getAttribute('aria-busy')).toBe(null);
    // (b) the connected SDK client was told and no longer lists the tool
    await client.toolsChanged.waitFor(1);
    expect(await client.toolNames()).not.toContain('echo');
    expect(server.tools.disabledNames()).toEqual(['echo']);
    // (c) the other page updated live (SSE)
    await expect.poll(() => second.getByRole('switch', { name: 'echo', exact: true }).isChecked()).toBe(false);
    await second.screenshot({ path: path.join(SHOTS, 'second-page-after-toggle.png'), fullPage: true });

    // A change made elsewhere (the app, another admin) reaches both pages, with the keyboard too.
    server.enableTool('echo');
    await expect.poll(() => echo.isChecked()).toBe(true);
    await expect.poll(() => second.getByRole('switch', { name: 'echo', exact: true }).isChecked()).toBe(true);
    await second.getByRole('switch', { name: 'whoami', exact: true }).focus();
    await second.keyboard.press('Space');
    await expect.poll(() => first.getByRole('switch', { name: 'whoami', exact: true }).isChecked()).toBe(false);
    expect(server.tools.disabledNames()).toEqual(['whoami']);
    server.setDisabledTools([]);
    await first.close();
    await second.close();
  });

  it('filters tools by name, package or description', async () => {
    const page = await openPage();
    await page.getByRole('switch', { name: 'echo', exact: true }).waitFor();
    await page.getByLabel('Filter tools').fill('fails');
    await expect.poll(() => page.getByRole('switch').count()).toBe(1);
    expect(await page.getByRole('switch', { name: 'fail', exact: true }).count()).toBe(1);
    await page.getByLabel('Filter tools').fill('zzz-nothing');
    await expect.poll(() => page.locator('#tools-empty').isVisible()).toBe(true);
    await page.close();
  });

  it('shows calls and errors live, and closes a session: that client gets 404', async () => {
    const page = await openPage();
    await expect.poll(() => page.locator('#connection').textContent()).toBe('Live');
    await client.callTool('echo', { text: 'hi' });
    await client.callTool('fail', {});
    await expect.poll(() => page.locator('#chart-errors').textContent()).toContain('fail');
    await expect.poll(() => page.locator('[data-tool="echo"] .stats').textContent()).toContain('1 call ·');
    const sessionId = transport.sessionId!;
    expect(sessionId).toBeTruthy();
    const close = page.getByRole('button', { name: `Close session ${sessionId}` });
    await expect.poll(() => close.count()).toBe(1);
    await expect.poll(() => page.locator('#sessions tbody').textContent()).toContain('contract-v1 1.0.0');
    await page.screenshot({ path: path.join(SHOTS, 'sessions-and-activity.png'), fullPage: true });
    await close.click();
    await expect.poll(() => close.count()).toBe(0);
    const response = await fetch(mcp, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Mcp-Session-Id': sessionId,
        'Mcp-Protocol-Version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    await page.close();
  });

  it('a wrong token shows a clear message and a way to enter the right one', async () => {
    const page = await openPage('not-the-right-token-at-all');
    const reason = page.locator('#login-reason');
    await expect.poll(() => reason.textContent()).toMatch(/admin token is wrong/);
    expect(await page.locator('#main').isVisible()).toBe(false);
    await page.screenshot({ path: path.join(SHOTS, 'wrong-token.png'), fullPage: true });
    await page.getByRole('textbox', { name: 'Admin token' }).fill(TOKEN);
    await page.getByRole('textbox', { name: 'Admin token' }).press('Enter');
    await expect.poll(() => page.getByRole('switch', { name: 'echo', exact: true }).count()).toBe(1);
    await page.close();
  });
});
