import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { testCa } from './test/idp/ca.js';
import { DATABASE_INDEPENDENT } from './test/postgres-suite.js';

// The test identity providers serve HTTPS with a throwaway CA; the server trusts it as an operator
// trusts a company CA (read at process start, so set here, before the test processes are forked).
process.env.NODE_EXTRA_CA_CERTS = testCa().caFile;

const here = fileURLToPath(new URL('.', import.meta.url));
const testFiles = (dir: string): string[] =>
  readdirSync(join(here, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() && e.name !== 'node_modules'
      ? testFiles(join(dir, e.name))
      : e.name.endsWith('.test.ts')
        ? [join(dir, e.name)]
        : [],
  );

// The PostgreSQL suite (TEST_DATABASE_URL) runs every file but those declared independent of the database.
const exclude = [
  ...configDefaults.exclude,
  ...(process.env.TEST_DATABASE_URL ? Object.keys(DATABASE_INDEPENDENT) : []),
];

/**
 * Test files share their worker's modules (isolate: false): loading the server's sources and packages once
 * per worker instead of once per file halves the suite's CPU time. A file that replaces or reloads modules
 * (vi.mock, vi.doMock, vi.resetModules) cannot share them, and gets a module registry of its own: found by
 * reading the files, so that a new one needs no list.
 */
const INCLUDE = ['src/**/*.test.ts', 'test/**/*.test.ts', 'bin/**/*.test.ts'];
const ownModules = ['src', 'test', 'bin']
  .flatMap(testFiles)
  .map((file) => relative(here, join(here, file)))
  .filter((file) => !exclude.includes(file))
  .filter((file) => /\bvi\.(mock|doMock|resetModules)\(/.test(readFileSync(join(here, file), 'utf8')));

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // (include and exclude are per project: extends would add the root's lists to each.)
      {
        extends: true,
        test: { name: 'shared modules', include: INCLUDE, exclude: [...exclude, ...ownModules], isolate: false },
      },
      ...(ownModules.length ? [{ extends: true as const, test: { name: 'own modules', include: ownModules } }] : []),
    ],
  },
});
