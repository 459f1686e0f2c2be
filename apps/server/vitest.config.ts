import { defineConfig } from 'vitest/config';
import { testCa } from './test/idp/ca.js';

// The test identity providers serve HTTPS with a throwaway CA; the server trusts it as an operator
// trusts a company CA (read at process start, so set here, before the test processes are forked).
process.env.NODE_EXTRA_CA_CERTS = testCa().caFile;

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bin/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
