// Debian's chromium driven by playwright-core (no browser download), for the settings page tests.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** A headless chromium with a throw-away profile; `close()` stops it and removes the profile. */
export async function launchChromium(
  viewport = { width: 1100, height: 1000 },
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the settings page tests need Debian's chromium (apt-get install chromium).`,
    );
  }
  const profile = mkdtempSync(path.join(os.tmpdir(), 'settings-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport,
    timeout: 20_000,
  });
  context.setDefaultTimeout(10_000);
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens the settings page of `admin` (its `/admin/` URL) with `#token=`. */
export async function openSettings(context: BrowserContext, admin: string, token: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${admin}#token=${encodeURIComponent(token)}`);
  return page;
}

/** How far the page scrolls sideways: 0 when nothing sticks out of the viewport. */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>(
    '(() => { const root = document.scrollingElement; return root.scrollWidth - root.clientWidth; })()',
  );
}
