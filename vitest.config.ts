import { defineConfig } from 'vitest/config';
import type { Reporter, TestModule } from 'vitest/node';
// @ts-expect-error: a plain script (no types); `npm test` runs it first to install what it can.
import { missingServices, skippedFilesReport, skippedTestFiles } from './scripts/test-services.mjs';

// Files whose service (Redis, HAProxy, Chromium) is missing are left out and named at the end;
// under CI=true a missing service fails the run instead (CI must run every test).
const missing: string[] = missingServices();
if (missing.length && process.env.CI === 'true') {
  throw new Error(
    `CI=true and ${missing.join(', ')} missing: run \`npm test\` (it installs them as root) or apt-get install them.`,
  );
}
const skipped: { file: string; lacking: string[] }[] = skippedTestFiles(missing);

/** Ends the run with one plain count line and, when files were left out, which and how to install what they need. */
const closingLines: Reporter = {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    const lines = [`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`];
    process.stdout.write(`${[...lines, ...skippedFilesReport(skipped)].join('\n')}\n`);
  },
};

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...skipped.map((entry) => entry.file)],
    reporters: ['default', closingLines],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // e2e suites spawn child processes; two cores: keep the pool small.
    maxWorkers: 2,
  },
});
