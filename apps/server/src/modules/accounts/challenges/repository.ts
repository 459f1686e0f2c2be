import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuthChallengesTable, Database } from '../../../db/schema.js';

/** The key a value is stored under: its SHA-256, so a leaked table hands out no live value. */
const challengeId = (value: string) => createHash('sha256').update(value).digest('hex');

/** A fresh random value (32 bytes, base64url): a WebAuthn challenge or a pending-step token. */
export const newChallengeValue = () => randomBytes(32).toString('base64url');

export type ChallengePurpose = AuthChallengesTable['purpose'];

export interface TakenChallenge {
  userId: string | null;
  data: string | null;
}

/**
 * Short-lived, single-use values that every instance sees (the database, SQLite or PostgreSQL alike):
 * a challenge made on one instance can be answered on another. `take` consumes one in a single DELETE
 * … RETURNING, so of two parallel answers exactly one gets it; an expired one is never returned.
 */
export function challengesRepository(db: Kysely<Database>) {
  return {
    async put(
      purpose: ChallengePurpose,
      value: string,
      options: { userId?: string | null; data?: string | null; ttlMs: number },
    ): Promise<void> {
      await db
        .insertInto('auth_challenges')
        .values({
          id: challengeId(value),
          purpose,
          user_id: options.userId ?? null,
          data: options.data ?? null,
          expires_at: Date.now() + options.ttlMs,
        })
        .execute();
    },

    /** Consumes the value: returns what it was stored with, or undefined (unknown, spent, expired). */
    async take(purpose: ChallengePurpose, value: string, maxAttempts?: number): Promise<TakenChallenge | undefined> {
      let query = db
        .deleteFrom('auth_challenges')
        .where('id', '=', challengeId(value))
        .where('purpose', '=', purpose)
        .where('expires_at', '>', Date.now());
      if (maxAttempts !== undefined) query = query.where('attempts', '<', maxAttempts);
      const row = await query.returning(['user_id', 'data']).executeTakeFirst();
      return row ? { userId: row.user_id, data: row.data } : undefined;
    },

    /** Reads a live value without consuming it. */
    async peek(purpose: ChallengePurpose, value: string, maxAttempts: number): Promise<TakenChallenge | undefined> {
      const row = await db
        .selectFrom('auth_challenges')
        .select(['user_id', 'data'])
        .where('id', '=', challengeId(value))
        .where('purpose', '=', purpose)
        .where('expires_at', '>', Date.now())
        .where('attempts', '<', maxAttempts)
        .executeTakeFirst();
      return row ? { userId: row.user_id, data: row.data } : undefined;
    },

    /**
     * Counts a wrong answer (in SQL, so parallel guesses cannot pass `maxAttempts`); the last allowed
     * one deletes the value. Returns the attempts left (0: spent).
     */
    async fail(purpose: ChallengePurpose, value: string, maxAttempts: number): Promise<number> {
      const id = challengeId(value);
      const row = await db
        .updateTable('auth_challenges')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where('purpose', '=', purpose)
        .where('attempts', '<', maxAttempts)
        .returning('attempts')
        .executeTakeFirst();
      const left = row ? maxAttempts - row.attempts : 0;
      if (left <= 0) await db.deleteFrom('auth_challenges').where('id', '=', id).execute();
      return left;
    },

    /** Deletes expired values (the purge job). */
    async purgeExpired(now = Date.now()): Promise<number> {
      const done = await db.deleteFrom('auth_challenges').where('expires_at', '<=', now).executeTakeFirst();
      return Number(done.numDeletedRows);
    },
  };
}
