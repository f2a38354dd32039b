// @needs chromium
// The settings page at phone widths (360 and 390 px) in real chromium: nothing scrolls sideways,
// even with long tool, package and client names, and every session's Close button is on screen.
// And: opening the settings URL (a new #token=) in a tab already on the page signs in with it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { ToolPackage } from '../../src/registry/tool-package.js';
import { startAdminServer, TOKEN } from './admin-harness.js';
import { horizontalOverflow, launchChromium, openSettings } from './chromium.js';

/** MCP tool names may be 128 characters of [A-Za-z0-9_.-]: no place to break a line. */
const LONG_NAME = `search_${'x'.repeat(60)}_documents_by_full_text_query_across_every_folder`.slice(0, 128);
const LONG_PACKAGE = 'enterprise-knowledge-base-connectors-and-document-converters-for-every-format';

let context: BrowserContext;
let closeBrowser: (() => Promise<void>) | undefined;
let server: HttpMcpServer;
let admin: string;
let mcp: string;
let folder: string;
let client: Client;

beforeAll(async () => {
  ({ server, admin, mcp } = await startAdminServer());
  server.registerTool(
    new ToolPackage(
      [
        defineTool({
          name: LONG_NAME,
          description: `Searches ${'every folder and every converter output '.repeat(4)}for the query.`,
          execute: () => 'ok',
        }),
        defineTool({ name: 'read_document_page_by_uri_and_page_number_or_character_range', execute: () => 'ok' }),
      ],
      { name: LONG_PACKAGE },
    ),
  );
  folder = mkdtempSync(path.join(os.tmpdir(), `settings-layout-${'deeply-nested-folder-name-'.repeat(3)}`));
  writeFileSync(path.join(folder, 'a.md'), '# A\n');
  writeFileSync(path.join(folder, `${'broken-'.repeat(12)}.pdf`), 'not a pdf');
  server.registerFolder(folder);
  client = new Client({ name: `a-client-with-a-very-long-name-${'x'.repeat(40)}`, version: '1.0.0' });
  await client.connect(new HttpV1(new URL(mcp)));
  const broken = (await client.listResources()).resources.find((resource) => resource.name.endsWith('.pdf'))!;
  await expect(client.readResource({ uri: broken.uri })).rejects.toThrow();
  await client.callTool({ name: LONG_NAME, arguments: {} });
  ({ context, close: closeBrowser } = await launchChromium());
}, 40_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  await closeBrowser?.();
  await server?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('settings page at phone widths (chromium)', () => {
  for (const width of [360, 390]) {
    it(`${width} px: no sideways scroll, long names wrap, Close is on screen`, async () => {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${admin}#token=${encodeURIComponent(TOKEN)}`);
      await page.getByRole('switch', { name: LONG_NAME, exact: true }).waitFor();
      const close = page.getByRole('button', { name: /^Close session / });
      await expect.poll(() => close.count()).toBe(1);
      await expect.poll(() => page.locator('#converter-errors').textContent()).toContain('broken-');
      expect(await horizontalOverflow(page)).toBe(0);
      const box = (await close.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const stats = (await page.locator(`[data-tool="${LONG_NAME}"] .stats`).boundingBox())!;
      expect(stats.x + stats.width).toBeLessThanOrEqual(width);
      if (width === 390) {
        const shots = path.resolve('test-results/settings-page');
        mkdirSync(shots, { recursive: true });
        await page.screenshot({ path: path.join(shots, 'phone-390.png'), fullPage: true });
      }
      await page.close();
    });
  }
});

describe('settings URL opened in a tab already on the page (chromium)', () => {
  it('a new #token= in the address bar signs in with it (hashchange), and leaves the address bar', async () => {
    const page = await openSettings(context, admin, 'not-the-right-token-at-all');
    await expect.poll(() => page.locator('#login-reason').textContent()).toMatch(/admin token is wrong/);
    // The person pastes the printed settings URL into this tab: same document, only the fragment changes.
    await page.goto(`${admin}#token=${encodeURIComponent(TOKEN)}`);
    await expect.poll(() => page.getByRole('switch', { name: 'echo', exact: true }).count()).toBe(1);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('Live');
    expect(await page.locator('#login').isVisible()).toBe(false);
    expect(page.url()).not.toContain('token');
    // And the other way round: a signed-in tab given a wrong token shows the sign-in form again.
    await page.goto(`${admin}#token=another-wrong-token-value`);
    await expect.poll(() => page.locator('#login-reason').textContent()).toMatch(/admin token is wrong/);
    await page.close();
  });
});
