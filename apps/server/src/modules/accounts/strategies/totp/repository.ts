import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/schema.js';

/** Authenticator-app secrets and recovery codes. `db` may be a transaction. */
export function totpRepository(db: Kysely<Database>) {
  return {
    factor: (userId: string) =>
      db.selectFrom('totp_factors').selectAll().where('user_id', '=', userId).executeTakeFirst(),

    async isOn(userId: string): Promise<boolean> {
      const row = await db
        .selectFrom('totp_factors')
        .select('user_id')
        .where('user_id', '=', userId)
        .where('enabled_at', 'is not', null)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** A new secret while enrolling (replaces an unconfirmed one; never one that is on). */
    async startEnrolment(userId: string, secretEnc: string): Promise<boolean> {
      const now = Date.now();
      await db
        .insertInto('totp_factors')
        .values({ user_id: userId, secret_enc: secretEnc, enabled_at: null, created_at: now })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
      const done = await db
        .updateTable('totp_factors')
        .set({ secret_enc: secretEnc, created_at: now, last_step: 0 })
        .where('user_id', '=', userId)
        .where('enabled_at', 'is', null)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },

    /**
     * Marks `step` used: only when it is newer than the last one used, in one UPDATE, so a code
     * replayed (or sent twice in parallel) is accepted once. `enabling`: the factor must be off (the
     * confirming code turns it on), otherwise it must be on.
     */
    async useStep(userId: string, step: number, enabling = false): Promise<boolean> {
      let query = db
        .updateTable('totp_factors')
        .set(enabling ? { last_step: step, enabled_at: Date.now() } : { last_step: step })
        .where('user_id', '=', userId)
        .where('last_step', '<', step);
      query = query.where('enabled_at', enabling ? 'is' : 'is not', null);
      return Number((await query.executeTakeFirst()).numUpdatedRows) === 1;
    },

    async remove(userId: string): Promise<void> {
      await db.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
      await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    },

    /** Replaces the account's recovery codes with these hashes. */
    async replaceRecoveryCodes(userId: string, hashes: string[]): Promise<void> {
      await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      const now = Date.now();
      await db
        .insertInto('recovery_codes')
        .values(hashes.map((code_hash) => ({ code_hash, user_id: userId, used_at: null, created_at: now })))
        .execute();
    },

    /** Spends one unused recovery code among `hashes` (one per key of the ring): one UPDATE, so once. */
    async useRecoveryCode(userId: string, hashes: string[]): Promise<boolean> {
      const done = await db
        .updateTable('recovery_codes')
        .set({ used_at: Date.now() })
        .where('user_id', '=', userId)
        .where('code_hash', 'in', hashes)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) >= 1;
    },

    async recoveryCodesLeft(userId: string): Promise<number> {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
