import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import { createRequire } from 'node:module';
import type PgModule from 'pg';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';
export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
let pgModule: typeof PgModule | undefined;
/** The PostgreSQL driver, loaded only when DATABASE_URL asks for it (SQLite servers never load it). */
function loadPg(): typeof PgModule {
  if (!pgModule) {
    pgModule = require('pg') as typeof PgModule;
    // int8 (bigint) columns hold epoch milliseconds: well inside Number's safe range.
    pgModule.types.setTypeParser(20, (value) => Number(value));
  }
  return pgModule;
}

export interface OpenOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** Errors of idle PostgreSQL connections (server restart, admin termination): reported, never fatal. */
  onIdleError?: (error: Error) => void;
}

/**
 * SQLite transactions that take the write lock when they begin (`begin immediate`), not at their first
 * write. A deferred transaction that reads and then writes fails at once with SQLITE_BUSY (the busy
 * timeout does not apply) when another process (the admin CLI, whose start writes the migration lock)
 * wrote in between: the request answered 503 though nothing was down. Begun immediately, it waits for
 * the other writer within the busy timeout instead. In this process the driver runs one transaction at
 * a time anyway, so nothing is lost.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/** How many prepared statements the embedded database keeps (the app has a few dozen queries). */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The SQLite connection as Kysely uses it, with each prepared statement kept by its SQL text: Kysely
 * prepares every query anew, which was a quarter of a login's own work. Bounded, oldest out first (an
 * IN list makes one text per length). Safe because Kysely runs one statement at a time on this single
 * connection and the app never streams a result (a statement mid-iteration cannot be reused).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

export function openDatabase(options: OpenOptions): Db {
  if (options.databaseUrl) {
    const pg = loadPg();
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // An unreachable server fails a request within seconds (503) instead of hanging it; a server
      // that is back is used by the next query (the pool opens new connections on demand). The same
      // bound covers the wait for a free client: at 3 s, a burst of 25 sign-ups per instance on a
      // loaded machine queued past it and answered 503 with the database up. A stopped server is
      // refused at once, so the bound only matters for one that does not answer; 10 s stays under
      // the web client's 15 s timeout.
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
      // A connection that hangs mid-query (network cut, server frozen) is given up on.
      query_timeout: 30_000,
      keepAlive: true,
    });
    // Without a listener, pg re-throws an idle client's error and the process dies; the pool
    // drops that client and opens a new one on the next query.
    pool.on('error', (error) => options.onIdleError?.(error));
    // A checked-out client has no pool listener: a server shutting down while a client is between two
    // queries of a transaction would otherwise crash the process. Its failed query answers 503 and
    // the pool discards the client when it is released (it is no longer queryable).
    pool.on('connect', (client) => client.on('error', (error) => options.onIdleError?.(error)));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  const file = join(options.dataDir, 'app.db');
  const sqlite = new SQLite(file);
  // First, so that the pragmas below wait for another process's lock too.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const kysely = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
  });
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

const SELECT_1 = CompiledQuery.raw('select 1');

export async function ping(db: Db): Promise<void> {
  await db.kysely.executeQuery(SELECT_1);
}
