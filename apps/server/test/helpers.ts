import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app.js';
import { ConfigError, loadConfig, type AppConfig, type Env } from '../src/config.js';

/**
 * A fresh server on a fresh database for one test file: SQLite in a temporary DATA_DIR, or, when
 * TEST_DATABASE_URL is set (the PostgreSQL suite), a new database on that server.
 */
export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  dataDir: string;
  close(): Promise<void>;
}

async function createPgDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function createTestApp(env: Env = {}, options: BuildOptions = { logger: false }): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'suite-test-'));
  const pgDb = process.env.TEST_DATABASE_URL ? await createPgDatabase(process.env.TEST_DATABASE_URL) : null;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:8080',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    WEB_DIST: join(dataDir, 'no-web'),
    MAIL_RETRY_BASE_MS: '50',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  const app = await buildApp(config, options);
  await app.ready();
  return {
    app,
    config,
    dataDir,
    async close() {
      await app.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const isPostgresSuite = () => Boolean(process.env.TEST_DATABASE_URL);

/** The problems loadConfig lists for `env` (none: []), with DATA_DIR set to `dataDir`. */
export function configProblems(dataDir: string, env: Record<string, string>): string[] {
  try {
    loadConfig({ DATA_DIR: dataDir, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

/** A log destination for a test's server: every line it writes, in order. */
export function logCapture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, stream };
}

/**
 * A confirmed, registered user inserted straight into the database (accounts are tested elsewhere), with a
 * session token from the real session issuer.
 */
export async function insertSignedInUser(
  app: FastifyInstance,
  user: { email: string; first: string; last: string; createdAt?: number },
): Promise<{ id: string; token: string }> {
  const id = randomBytes(12).toString('hex');
  const now = Date.now();
  await app.db.kysely
    .insertInto('users')
    .values({
      id,
      email: user.email,
      password_hash: null,
      first_name: user.first,
      last_name: user.last,
      language: 'en',
      preferences: '{}',
      confirmed_at: now,
      registered_at: now,
      invited_by: null,
      created_at: user.createdAt ?? now,
    })
    .execute();
  return { id, token: await app.sessions.issue({ _id: id, email: user.email, preferences: {}, profile_id: null }) };
}
