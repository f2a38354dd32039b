// `npm test` on a machine without Redis, HAProxy or Chromium: scripts/test-services.mjs is run
// as npm runs it (a child process), with the services hidden, to check it skips loudly (or fails
// under CI=true); and every test file that starts such a service declares it with `// @needs`.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script without types.
import { skippedFilesReport, testFilesNeeding } from '../../scripts/test-services.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = path.join(ROOT, 'scripts/test-services.mjs');

/** Runs the script with no PATH (so only the sbin folders are searched) and no installing. */
function runHidden(env: Record<string, string>) {
  return spawnSync(process.execPath, [SCRIPT], {
    env: { PATH: '/nonexistent', MCP_TOOLKIT_TEST_INSTALL: '0', ...env },
    encoding: 'utf8',
  });
}

describe('scripts/test-services.mjs', () => {
  it('names what it cannot find and exits 0 outside CI', () => {
    const result = runHidden({});
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/redis-server.*chromium.*not installed and not installable here/);
  });

  it('fails under CI=true and says what to install', () => {
    const result = runHidden({ CI: 'true' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('CI=true and');
    expect(result.stderr).toMatch(/apt-get install .*redis-server.*chromium/);
  });

  it('reports each skipped file, what it lacks and the install command', () => {
    const lines: string[] = skippedFilesReport([
      { file: 'test/cluster/a.test.ts', lacking: ['redis-server'] },
      { file: 'test/admin/b.test.ts', lacking: ['chromium', 'redis-server'] },
    ]);
    expect(lines).toEqual([
      'Skipped 2 test file(s): a service they need is not installed.',
      '  test/cluster/a.test.ts (needs redis-server)',
      '  test/admin/b.test.ts (needs chromium, redis-server)',
      'Install with: apt-get install redis-server chromium (as root; Debian/Ubuntu), then run npm test again.',
    ]);
    expect(skippedFilesReport([])).toEqual([]);
  });
});

describe('@needs declarations', () => {
  const needs: Map<string, string[]> = testFilesNeeding();
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );
  // What starting each service looks like in a test file, directly or through the shared harnesses.
  const uses: Record<string, RegExp> = {
    'redis-server': /\bRedisServer\b|from '\.\/replicas\.js'|from '\.\.\/cluster\/replicas\.js'/,
    haproxy: /\bHaproxyServer\b/,
    chromium: /from 'playwright-core'/,
  };

  it('is present on every test file that starts a service', () => {
    const missing: string[] = [];
    const self = fileURLToPath(import.meta.url);
    for (const file of files(path.join(ROOT, 'test')).filter((name) => name.endsWith('.test.ts') && name !== self)) {
      const relative = path.relative(ROOT, file).split(path.sep).join('/');
      const text = readFileSync(file, 'utf8');
      for (const [service, pattern] of Object.entries(uses)) {
        if (pattern.test(text) && !needs.get(relative)?.includes(service)) missing.push(`${relative}: ${service}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
