import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // e2e suites spawn child processes; two cores: keep the pool small.
    maxWorkers: 2,
  },
});
