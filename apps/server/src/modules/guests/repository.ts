import type { Kysely } from 'kysely';
import type { Database, GuestsTable } from '../../db/schema.js';

export type GuestRow = GuestsTable;

/** Guests of meetings. `db` may be a transaction. */
export function guestsRepository(db: Kysely<Database>) {
  return {
    async insert(row: GuestRow): Promise<void> {
      await db.insertInto('guests').values(row).execute();
    },
    find(id: string): Promise<GuestRow | undefined> {
      return db.selectFrom('guests').selectAll().where('id', '=', id).executeTakeFirst();
    },
  };
}
