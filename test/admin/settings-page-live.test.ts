// @needs chromium
// The settings page in a real browser (Debian's chromium, playwright-core) follows changes made
// elsewhere without a reload: a tool override saved in another tab or through server.setToolOverride
// (the API, a pushed tool state) reaches an open page through one `toolOverridden` server event per
// effective change; and the Upstreams panel shows each upstream's state and tool count, live, when
// its stdio child is killed with SIGKILL (its tools stay listed, unavailable, and switchable) and when
// it comes back, never showing its environment. The Documents panel shows only when documents are served.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { startAdminServer, TOKEN } from './admin-harness.js';
import { launchChromium, openSettings } from './chromium.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/stdio-fixture.mjs', import.meta.url));
const SECRET = 'upstream-env-secret-31415';

let context: BrowserContext;
let closeBrowser: (() => Promise<void>) | undefined;
let server: HttpMcpServer;
let admin: string;
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'settings-live-'));
  writeFileSync(path.join(folder, 'note.txt'), 'hello');
  ({ server, admin } = await startAdminServer());
  ({ context, close: closeBrowser } = await launchChromium());
}, 40_000);

afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('settings page live refresh (chromium)', () => {
  it('an override made in another tab or by the server shows in an open page; one event per change', async () => {
    const events: Array<{ name: string; exposedName: string }> = [];
    server.events.on('toolOverridden', ({ name, exposedName }) => events.push({ name, exposedName }));
    const editor = await openSettings(context, admin, TOKEN);
    const watcher = await openSettings(context, admin, TOKEN);
    for (const page of [editor, watcher]) {
      await expect.poll(() => page.locator('#connection').textContent()).toBe('Live');
    }

    const row = editor.locator('[data-tool="echo"]');
    await row.locator('details.override summary').click();
    await row.getByLabel('Name clients see').fill('say');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => watcher.locator('[data-tool="echo"] .renamed').textContent()).toBe('Clients see it as say');

    // The server's own call (what the API, another replica's pushed state and the store all end in).
    server.setToolOverride('whoami', { description: 'Set by the server.' });
    for (const page of [editor, watcher]) {
      await expect
        .poll(() => page.locator('[data-tool="whoami"] .description').textContent())
        .toBe('Set by the server.');
    }
    server.setToolOverride('whoami', { description: 'Set by the server.' }); // no effective change: no event
    server.setToolOverride('whoami', undefined);
    await expect.poll(() => watcher.locator('[data-tool="whoami"] .description').textContent()).toBe('Says who.');
    expect(events).toEqual([
      { name: 'echo', exposedName: 'say' },
      { name: 'whoami', exposedName: 'whoami' },
      { name: 'whoami', exposedName: 'whoami' },
    ]);
    server.setToolOverride('echo', undefined);
    await expect.poll(() => watcher.locator('[data-tool="echo"] .renamed').count()).toBe(0);
    await editor.close();
    await watcher.close();
  }, 60_000);

  it('hides the Documents panel while no folder or document is served, and shows it once one is', async () => {
    const page = await openSettings(context, admin, TOKEN);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('Live');
    expect(await page.locator('#documents-panel').isHidden()).toBe(true);
    const empty = mkdtempSync(path.join(os.tmpdir(), 'settings-live-empty-'));
    try {
      server.registerFolder(empty); // no file yet: a folder is served all the same
      await page.reload();
      await expect.poll(() => page.locator('#documents-panel').isVisible()).toBe(true);
      await expect.poll(() => page.locator('#documents-summary').textContent()).toMatch(/^0 documents/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    await page.close();
  }, 60_000);

  it("shows each upstream's state and tool count live: SIGKILL of its child, then its return", async () => {
    const page = await openSettings(context, admin, TOKEN);
    await expect.poll(() => page.locator('#connection').textContent()).toBe('Live');
    expect(await page.locator('#upstreams-panel').isHidden()).toBe(true); // no upstream yet

    const upstream = server.addUpstream({
      name: 'files',
      command: process.execPath,
      args: [FIXTURE, folder],
      env: { FIXTURE_SECRET: SECRET },
      backoff: { initialMs: 3_000 }, // long enough to switch a tool off while it is down
    });
    await upstream.whenConnected();
    const item = page.locator('[data-upstream="files"]');
    await expect.poll(() => item.locator('.upstream-state').textContent()).toBe('connected');
    const tools = upstream.status.tools;
    expect(tools).toBeGreaterThan(0);
    await expect.poll(() => item.locator('.upstream-tools').textContent()).toBe(`${tools} tools`);
    await expect
      .poll(() => page.locator('#tool-groups legend', { hasText: 'files' }).textContent())
      .toBe('files (upstream, connected)');

    await expect.poll(() => page.locator('[data-tool^="files_"]').count()).toBe(tools);
    const pid = upstream.status.pid!;
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => item.locator('.upstream-state').textContent()).toMatch(/^(retrying|connecting)$/);
    await expect.poll(() => item.locator('.upstream-tools').textContent()).toBe('0 tools');
    // Its tools stay listed, marked unavailable, and can be switched off meanwhile (saved by name).
    await expect.poll(() => page.locator('[data-tool^="files_"].unavailable').count()).toBe(tools);
    const first = upstream.status.knownTools[0]!;
    await page.locator(`[data-tool="${first}"] input.switch`).click({ timeout: 10_000 });
    await expect.poll(() => server.tools.isDisabled(first)).toBe(true);

    await upstream.whenConnected();
    expect(upstream.status.pid).not.toBe(pid);
    await expect.poll(() => item.locator('.upstream-state').textContent()).toBe('connected');
    await expect.poll(() => item.locator('.upstream-tools').textContent()).toBe(`${tools} tools`);
    await expect.poll(() => page.locator('[data-tool^="files_"]').count()).toBe(tools);
    await expect.poll(() => page.locator('[data-tool^="files_"].unavailable').count()).toBe(0);
    expect(await page.locator(`[data-tool="${first}"] input.switch`).isChecked()).toBe(false);
    server.enableTool(first);
    expect(await page.content()).not.toContain(SECRET);
    expect(await item.locator('.upstream-detail').textContent()).toContain('stdio: node (+2 arguments)');
    await upstream.close();
    await expect.poll(() => item.locator('.upstream-state').textContent()).toBe('closed');
    await page.close();
  }, 60_000);
});
