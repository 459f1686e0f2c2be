import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';
export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

// int8 (bigint) columns hold epoch milliseconds: well inside Number's safe range.
pg.types.setTypeParser(20, (value) => Number(value));

export interface OpenOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** Errors of idle PostgreSQL connections (server restart, admin termination): reported, never fatal. */
  onIdleError?: (error: Error) => void;
}

export function openDatabase(options: OpenOptions): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // Without a listener, pg re-throws an idle client's error and the process dies; the pool
    // drops that client and opens a new one on the next query.
    pool.on('error', (error) => options.onIdleError?.(error));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  const file = join(options.dataDir, 'app.db');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
}

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}
