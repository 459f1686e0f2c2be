import { defineConfig } from 'vitest/config';

/** The scale-out suite: built server processes behind nginx (run by scripts/test-all.mjs after the build). */
export default defineConfig({
  test: {
    include: ['test-scale/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
