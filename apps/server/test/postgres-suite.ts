/**
 * Which server test files the PostgreSQL suite leaves out. Every test file runs on SQLite and on
 * PostgreSQL unless it is named here, with why it does not depend on the database: a new file, or one whose
 * subject is the database (repositories, migrations, transactions, SQL), runs on both without anyone having
 * to remember it. vitest.config.ts excludes these files when TEST_DATABASE_URL is set (the PostgreSQL suite);
 * postgres-suite.test.ts fails when a file named here is gone or reaches the database by name.
 *
 * Some of these files sign a person in to reach what they test; that goes through the same sign-up calls
 * that the accounts-* files test on both databases.
 */
export const DATABASE_INDEPENDENT: Readonly<Record<string, string>> = {
  'test/runtime-deps.test.ts': 'reads the bundle and package manifests, starts no server',
  'test/accounts-config.test.ts': 'parses settings; starts no server',
  'test/storage-contract.test.ts': 'the file storage back ends (disk, S3 stand-in), no server',
  'test/logging.test.ts': 'what the logger writes and redacts',
  'test/metrics.test.ts': 'the metrics endpoint and its counters in memory',
  'test/meetings-presence.test.ts': 'presence lives in memory or Redis, not in the database',
  'test/meetings-tokens.test.ts': 'the Jitsi / JaaS tokens the server signs',
  'test/meetings-keepalive.test.ts': 'the keep-alive token and its timing, in memory',
  'test/rate-limit-redis.test.ts': 'the rate limits shared through Redis',
  'test/system.test.ts': 'health, headers and static files of the HTTP layer',
  'test/postgres-suite.test.ts': 'checks this list',
};
