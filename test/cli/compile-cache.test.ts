// #30 (W0, CLI): on Node >= 22.8 the CLI keeps V8's compiled code on disk (src/cli/main.ts), written when it exits
// (here `serve --stdio` whose stdin ends at once, as a client closing it), so the next start compiles nothing again.
// A Node without a compile cache (Node 20) serves the same and writes nothing, NODE_COMPILE_CACHE or not.
import module from 'node:module';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from './cli-process.js';

const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** Files under `folder`, recursively (the cache keeps one folder per Node version); none when it does not exist. */
const filesUnder = (folder: string): string[] =>
  existsSync(folder)
    ? readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name)
    : [];

/** Runs `serve --stdio` until its stdin ends (at once) and it exits; expects exit code 0. */
async function serveOnce(env: Record<string, string>): Promise<void> {
  const cli = startCli(['serve', '--stdio', '-q', 'docs'], undefined, env);
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), 20_000);
  expect(await cli.exited, cli.stderr()).toBe(0);
  clearTimeout(timer);
}

describe(`the CLI's compile cache (Node ${process.version}: ${hasCompileCache ? 'has one' : 'has none'})`, () => {
  it('serve writes it into NODE_COMPILE_CACHE where Node has one, and not with NODE_DISABLE_COMPILE_CACHE', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cli-compile-cache-'));
    try {
      await serveOnce({ NODE_COMPILE_CACHE: join(folder, 'off'), NODE_DISABLE_COMPILE_CACHE: '1' });
      expect(filesUnder(join(folder, 'off'))).toEqual([]);
      await serveOnce({ NODE_COMPILE_CACHE: join(folder, 'on') });
      const written = filesUnder(join(folder, 'on')).length;
      // Where Node has a cache: the program's chunks and the SDK's modules, not only the bootstrap. Else: nothing.
      if (hasCompileCache) expect(written).toBeGreaterThan(20);
      else expect(written).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
