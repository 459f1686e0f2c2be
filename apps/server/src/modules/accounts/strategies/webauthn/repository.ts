import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, PasskeysTable } from '../../../../db/schema.js';

export type PasskeyRow = Selectable<PasskeysTable>;

/** The accounts' passkeys. `db` may be a transaction. */
export function passkeysRepository(db: Kysely<Database>) {
  return {
    ofUser: (userId: string) =>
      db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').execute(),

    byCredentialId: (credentialId: string) =>
      db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst(),

    async add(row: Omit<PasskeyRow, 'id' | 'created_at' | 'last_used_at'>): Promise<PasskeyRow> {
      const full: PasskeyRow = {
        ...row,
        id: randomBytes(12).toString('hex'),
        created_at: Date.now(),
        last_used_at: null,
      };
      await db.insertInto('passkeys').values(full).execute();
      return full;
    },

    /**
     * Records a sign-in: the new counter only over the one read (compare-and-set), so two parallel uses
     * of one assertion, or of a cloned authenticator, cannot both pass.
     */
    async used(id: string, expectedCounter: number, counter: number, backedUp: boolean): Promise<boolean> {
      const done = await db
        .updateTable('passkeys')
        .set({ counter, last_used_at: Date.now(), backed_up: backedUp ? 1 : 0 })
        .where('id', '=', id)
        .where('counter', '=', expectedCounter)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },

    async rename(userId: string, id: string, name: string): Promise<boolean> {
      const done = await db
        .updateTable('passkeys')
        .set({ name })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const done = await db
        .deleteFrom('passkeys')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(done.numDeletedRows) === 1;
    },

    /** Every passkey of the account (an operator's reset of its factors). Returns how many. */
    async removeAll(userId: string): Promise<number> {
      const done = await db.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
      return Number(done.numDeletedRows);
    },

    async count(userId: string): Promise<number> {
      const row = await db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
