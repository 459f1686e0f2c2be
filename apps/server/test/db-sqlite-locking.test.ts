import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.js';
import { isPostgresSuite } from './helpers.js';

/**
 * The embedded database is one file that another process may write too (the admin CLI, whose start
 * writes Kysely's migration lock). A request's transaction that read before such a write and wrote
 * after it used to fail at once with SQLITE_BUSY, answered as 503 though nothing was down (seen in a full
 * e2e run, on the code check).
 */
describe.skipIf(isPostgresSuite())('SQLite transactions and another process writing the same file', () => {
  let dir: string;
  let db: Db | undefined;
  let other: SQLite.Database | undefined;
  afterEach(async () => {
    other?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a transaction that reads, then writes, commits; the other writer waits for it instead', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-lock-'));
    db = openDatabase({ dataDir: dir });
    await sql`create table scratch (who text)`.execute(db.kysely);
    // The other process, without a busy timeout: it says at once whether our transaction holds the lock.
    other = new SQLite(join(dir, 'app.db'));
    other.pragma('busy_timeout = 0');

    let otherWrite = 'not tried';
    await db.kysely.transaction().execute(async (trx) => {
      await sql`select count(*) from scratch`.execute(trx);
      try {
        other!.prepare(`insert into scratch (who) values ('other')`).run();
        otherWrite = 'written';
      } catch (error) {
        otherWrite = (error as { code?: string }).code ?? String(error);
      }
      await sql`insert into scratch (who) values ('request')`.execute(trx);
    });

    expect(otherWrite).toBe('SQLITE_BUSY');
    const rows = await sql<{ who: string }>`select who from scratch`.execute(db.kysely);
    expect(rows.rows.map((r) => r.who)).toEqual(['request']);
    // Once the request's transaction is over, the other process writes as usual.
    other.prepare(`insert into scratch (who) values ('other')`).run();
    expect((await sql`select who from scratch`.execute(db.kysely)).rows).toHaveLength(2);
  });
});
