import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function insertInvite(
  db: Kysely<Database>,
  invite: { jtiHash: string; email: string; inviterId: string | null; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('invites')
    .values({
      jti_hash: invite.jtiHash,
      email: invite.email,
      inviter_id: invite.inviterId,
      expires_at: invite.expiresAt,
      accepted_at: null,
      created_at: Date.now(),
    })
    .execute();
}

export const findInvite = (db: Kysely<Database>, jtiHash: string) =>
  db.selectFrom('invites').selectAll().where('jti_hash', '=', jtiHash).executeTakeFirst();

/** Marks the invite accepted unless it already was or has expired: only one acceptance can win. */
export async function acceptInvite(db: Kysely<Database>, jtiHash: string, now = Date.now()): Promise<boolean> {
  const done = await db
    .updateTable('invites')
    .set({ accepted_at: now })
    .where('jti_hash', '=', jtiHash)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}
