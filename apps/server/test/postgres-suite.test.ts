import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DATABASE_INDEPENDENT } from './postgres-suite.js';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
/** What a test that reaches the database names: its handle, the SQL builder, tables, migrations, the drivers. */
const DATABASE_WORDS =
  /\.db\b|kysely|\bsql\b|selectFrom|insertInto|deleteFrom|updateTable|repositor|migrat|transaction|better-sqlite3|\bpg\b|DATABASE_URL|isPostgresSuite/i;

describe('the files the PostgreSQL suite leaves out', () => {
  const files = Object.keys(DATABASE_INDEPENDENT).filter((file) => file !== 'test/postgres-suite.test.ts');

  it.each(files)('%s exists and names nothing of the database', (file) => {
    const path = join(serverDir, file);
    expect(existsSync(path), `${file} is listed but gone`).toBe(true);
    const source = readFileSync(path, 'utf8');
    const hit = DATABASE_WORDS.exec(source);
    expect(hit?.[0], `${file} reaches the database: remove it from postgres-suite.ts`).toBeUndefined();
  });

  it('says why for each', () => {
    for (const [file, why] of Object.entries(DATABASE_INDEPENDENT)) expect(why.length, file).toBeGreaterThan(10);
  });
});
