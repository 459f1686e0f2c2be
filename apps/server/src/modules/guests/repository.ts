import type { Db } from '../../db/database.js';
import type { GuestsTable } from '../../db/schema.js';

export type GuestRow = GuestsTable;

export function createGuestRepository(db: Db) {
  return {
    async insert(row: GuestRow): Promise<void> {
      await db.kysely.insertInto('guests').values(row).execute();
    },
    find(id: string): Promise<GuestRow | undefined> {
      return db.kysely.selectFrom('guests').selectAll().where('id', '=', id).executeTakeFirst();
    },
  };
}
