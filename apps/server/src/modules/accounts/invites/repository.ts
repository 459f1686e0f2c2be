import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

/**
 * Team invitation links, one row per inviter: the current generation, its validity, and whether the
 * inviter turned it off. `db` may be a transaction.
 */
export function teamLinksRepository(db: Kysely<Database>) {
  return {
    find: (userId: string) => db.selectFrom('team_links').selectAll().where('user_id', '=', userId).executeTakeFirst(),

    /** The first link of an inviter (generation 1); does nothing when one exists (another instance won). */
    async create(userId: string, now: number, ttlMs: number): Promise<void> {
      await db
        .insertInto('team_links')
        .values({ user_id: userId, generation: 1, created_at: now, expires_at: now + ttlMs, off_at: null })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute();
    },

    /** A new generation (the old links stop working), on. One statement: two at once make two generations. */
    async rotate(userId: string, now: number, ttlMs: number): Promise<void> {
      await db
        .insertInto('team_links')
        .values({ user_id: userId, generation: 1, created_at: now, expires_at: now + ttlMs, off_at: null })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            generation: sql<number>`team_links.generation + 1`,
            created_at: now,
            expires_at: now + ttlMs,
            off_at: null,
          }),
        )
        .execute();
    },

    /** Off: no link of this inviter admits anyone until a new one is made. */
    async turnOff(userId: string, now: number): Promise<void> {
      await db
        .insertInto('team_links')
        .values({ user_id: userId, generation: 1, created_at: now, expires_at: now, off_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ off_at: now }))
        .execute();
    },
  };
}

/** Personal invites (by the hash of their token id). `db` may be a transaction. */
export function invitesRepository(db: Kysely<Database>) {
  return {
    async insert(invite: { jtiHash: string; email: string; inviterId: string | null; expiresAt: number }) {
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
    },

    /**
     * A domain's invitations still open (not accepted, not expired) whose address has no registered
     * account: the console's "invited" people, the newest invitation of each address.
     */
    pendingOfDomain: (domain: string, now: number) =>
      db
        .selectFrom('invites')
        .select([
          'email',
          (eb) => eb.fn.max('jti_hash').as('any_hash'),
          (eb) => eb.fn.max('created_at').as('created_at'),
        ])
        .where('email', 'like', `%@${domain.replace(/[%_\\]/g, '')}`)
        .where('accepted_at', 'is', null)
        .where('expires_at', '>', now)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('users')
                .select('users.id')
                .whereRef('users.email', '=', 'invites.email')
                .where('users.registered_at', 'is not', null),
            ),
          ),
        )
        .groupBy('email')
        .orderBy('email')
        .execute(),

    find: (jtiHash: string) => db.selectFrom('invites').selectAll().where('jti_hash', '=', jtiHash).executeTakeFirst(),

    /** Who sent the newest invitation to this address (null: none, or an administrator). */
    async lastInviterOf(email: string): Promise<string | null> {
      const row = await db
        .selectFrom('invites')
        .select('inviter_id')
        .where('email', '=', email)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      return row?.inviter_id ?? null;
    },

    /** Marks the invite accepted unless it already was or has expired: only one acceptance can win. */
    async accept(jtiHash: string, now = Date.now()): Promise<boolean> {
      const done = await db
        .updateTable('invites')
        .set({ accepted_at: now })
        .where('jti_hash', '=', jtiHash)
        .where('accepted_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },

    /** Per address: how many invites were written since `since`, and when the oldest of them was. */
    async recent(emails: string[], since: number): Promise<{ email: string; n: number; oldest: number }[]> {
      if (emails.length === 0) return [];
      const rows = await db
        .selectFrom('invites')
        .select((eb) => ['email', eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where('email', 'in', emails)
        .where('created_at', '>', since)
        .groupBy('email')
        .execute();
      return rows.map((r) => ({ email: r.email, n: Number(r.n), oldest: Number(r.oldest) }));
    },
  };
}
