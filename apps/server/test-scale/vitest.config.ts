import { defineConfig } from 'vitest/config';
import { testCa } from '../test/idp/ca.js';

// The test OpenID provider serves HTTPS with a throwaway CA; the test process reaches it too (the
// person at its sign-in page), so it trusts the CA from its start, as apps/server/vitest.config.ts does.
process.env.NODE_EXTRA_CA_CERTS = testCa().caFile;

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
