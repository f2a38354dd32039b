// #30 (W0, CLI): on Node >= 22.8 the CLI keeps V8's compiled code on disk (src/cli/main.ts), written when it exits
// gracefully (here `serve --stdio` whose stdin ends at once, as a client closing it), so the next start compiles
// nothing again. Node 20 has no compile cache: the file is skipped there (and names the version).
import module from 'node:module';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from './cli-process.js';

const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** Files under `folder`, recursively (the cache keeps one folder per Node version). */
const filesUnder = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);

describe.skipIf(!hasCompileCache)(`the CLI's compile cache (Node >= 22.8; this is ${process.version})`, () => {
  it('serve writes it when it exits, into NODE_COMPILE_CACHE, and not with NODE_DISABLE_COMPILE_CACHE', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cli-compile-cache-'));
    const run = async (env: Record<string, string>) => {
      const cli = startCli(['serve', '--stdio', '-q', 'docs'], undefined, env);
      const timer = setTimeout(() => cli.child.kill('SIGKILL'), 20_000);
      expect(await cli.exited, cli.stderr()).toBe(0);
      clearTimeout(timer);
    };
    try {
      await run({ NODE_COMPILE_CACHE: join(folder, 'off'), NODE_DISABLE_COMPILE_CACHE: '1' });
      expect(() => readdirSync(join(folder, 'off'))).toThrow();
      await run({ NODE_COMPILE_CACHE: join(folder, 'on') });
      // The program's chunks and the SDK's modules, not only the bootstrap.
      expect(filesUnder(join(folder, 'on')).length).toBeGreaterThan(20);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
