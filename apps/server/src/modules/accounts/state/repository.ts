import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

/** The key a value is stored under: its SHA-256, so a leaked table hands out no live value. */
const stateId = (value: string) => createHash('sha256').update(value).digest('hex');

/** A fresh random value (32 bytes, base64url): a challenge, a pending-step token, a hand-off. */
export const newStateValue = () => randomBytes(32).toString('base64url');

/** What a value is for: a value of one purpose is never accepted as another. */
export type StatePurpose =
  | 'passkey-register'
  | 'passkey-login'
  | 'second-step'
  | 'sso-request'
  | 'sso-replay'
  | 'handoff'
  | 'factor-revert'
  /** A single-sign-on warning logged (SHA-1 received, certificate ending): once a day over all instances. */
  | 'sso-notice'
  /** A sign-in that must enrol an authenticator app first (the domain requires two-step verification). */
  | 'enrol'
  /** An administrator's last Test sign-in of a domain's connection (its result, for the console). */
  | 'sso-test';

export interface TakenState {
  subject: string | null;
  data: string | null;
}

/**
 * The one store of short-lived, single-use state that every instance sees (the database, SQLite or
 * PostgreSQL alike): a value made on one instance can be answered on another. `take` consumes one in a
 * single DELETE … RETURNING, so of two parallel answers exactly one gets it; an expired one is never
 * returned. Flows with a guess budget count wrong answers with `fail`.
 */
export function flowState(db: Kysely<Database>) {
  const live = (purpose: StatePurpose, value: string, now: number) =>
    db
      .selectFrom('flow_state')
      .select(['subject', 'data'])
      .where('id', '=', stateId(value))
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now);
  return {
    async put(
      purpose: StatePurpose,
      value: string,
      options: { subject?: string | null; data?: string | null; ttlMs: number },
    ): Promise<void> {
      await db
        .insertInto('flow_state')
        .values({
          id: stateId(value),
          purpose,
          subject: options.subject ?? null,
          data: options.data ?? null,
          expires_at: Date.now() + options.ttlMs,
        })
        .execute();
    },

    /**
     * Stores the value only if it is not there yet: false when it was (a replayed assertion ID). An
     * expired entry is purged, not reused, so the window is the entry's whole life.
     */
    async firstUse(purpose: StatePurpose, value: string, ttlMs: number): Promise<boolean> {
      const done = await db
        .insertInto('flow_state')
        .values({
          id: stateId(`${purpose}:${value}`),
          purpose,
          subject: null,
          data: null,
          expires_at: Date.now() + ttlMs,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(done.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** Consumes the value: returns what it was stored with, or undefined (unknown, spent, expired). */
    async take(purpose: StatePurpose, value: string, maxAttempts?: number): Promise<TakenState | undefined> {
      let query = db
        .deleteFrom('flow_state')
        .where('id', '=', stateId(value))
        .where('purpose', '=', purpose)
        .where('expires_at', '>', Date.now());
      if (maxAttempts !== undefined) query = query.where('attempts', '<', maxAttempts);
      const row = await query.returning(['subject', 'data']).executeTakeFirst();
      return row ? { subject: row.subject, data: row.data } : undefined;
    },

    /** Reads a live value without consuming it. */
    async peek(purpose: StatePurpose, value: string, maxAttempts?: number): Promise<TakenState | undefined> {
      let query = live(purpose, value, Date.now());
      if (maxAttempts !== undefined) query = query.where('attempts', '<', maxAttempts);
      return query.executeTakeFirst();
    },

    /**
     * Counts a wrong answer (in SQL, so parallel guesses cannot pass `maxAttempts`); the last allowed
     * one deletes the value. Returns the attempts left (0: spent).
     */
    async fail(purpose: StatePurpose, value: string, maxAttempts: number): Promise<number> {
      const id = stateId(value);
      const row = await db
        .updateTable('flow_state')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where('purpose', '=', purpose)
        .where('attempts', '<', maxAttempts)
        .returning('attempts')
        .executeTakeFirst();
      const left = row ? maxAttempts - row.attempts : 0;
      if (left <= 0) await db.deleteFrom('flow_state').where('id', '=', id).execute();
      return left;
    },

    /**
     * Consumes every live value of a purpose held for one subject (one DELETE … RETURNING): what they
     * were stored with, in no particular order.
     */
    async takeSubject(purpose: StatePurpose, subject: string): Promise<TakenState[]> {
      const rows = await db
        .deleteFrom('flow_state')
        .where('purpose', '=', purpose)
        .where('subject', '=', subject)
        .where('expires_at', '>', Date.now())
        .returning(['subject', 'data'])
        .execute();
      return rows.map((row) => ({ subject: row.subject, data: row.data }));
    },

    /** Deletes every value of a purpose held for one subject (a pending step of an account whose sessions ended). */
    async dropSubject(purpose: StatePurpose, subject: string): Promise<void> {
      await db.deleteFrom('flow_state').where('purpose', '=', purpose).where('subject', '=', subject).execute();
    },

    /** Deletes expired values (the purge job). */
    async purgeExpired(now = Date.now()): Promise<number> {
      const done = await db.deleteFrom('flow_state').where('expires_at', '<=', now).executeTakeFirst();
      return Number(done.numDeletedRows);
    },
  };
}
