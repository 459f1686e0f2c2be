import type { Kysely } from 'kysely';
import type { Database, MailOutboxTable } from '../db/schema.js';

/** A mail as the outbox holds it for delivery (the claimed row). */
export interface OutboxMail {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
  created_at: number;
}

export type NewOutboxMail = Pick<MailOutboxTable, 'id' | 'kind' | 'to_address' | 'subject' | 'text_body' | 'html_body'>;

/** Delivered and failed rows (their bodies already cleared) are kept this long for support questions. */
export const KEEP_DONE_MS = 7 * 86_400_000;

/** The bodies carry codes and invite links: once a mail is delivered or given up they are not kept. */
const CLEARED = { subject: '', text_body: '', html_body: '' } as const;

/**
 * The one place that reads and writes the `mail_outbox` table: the mailer queues into it, the outbox
 * job claims, delivers and records, the purge job removes old rows, `/metrics` and the admin CLI read
 * it. Every write of a claimed row is conditional on the claim token, so a worker that lost its claim
 * never overwrites another's. `db` may be a transaction (a mail is queued with the caller's).
 */
export function outboxRepository(db: Kysely<Database>) {
  /** An update of the row `id`, only while `token` holds its claim. */
  const underClaim = (id: string, token: string) =>
    db.updateTable('mail_outbox').where('id', '=', id).where('claim_token', '=', token);

  return {
    async insert(mail: NewOutboxMail, now = Date.now()): Promise<void> {
      await db
        .insertInto('mail_outbox')
        .values({ ...mail, next_attempt_at: now, created_at: now })
        .execute();
    },

    /** Ids of up to `limit` rows due now and not claimed, the longest waiting first. */
    async due(now: number, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('next_attempt_at', '<=', now)
        .where('locked_until', '<', now)
        .orderBy('next_attempt_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    /**
     * Claims the row for `token` until `until` if it is still due and unclaimed (what `due` saw may be
     * stale: another instance may have tried it meanwhile), and reads it again under the claim, so a
     * stale attempt count is never written back. Null when someone else got it first. The lease runs
     * from when the query runs: a time taken before waiting for a connection could already be past.
     */
    async claim(id: string, token: string, leaseMs: number): Promise<OutboxMail | null> {
      const now = Date.now();
      const result = await db
        .updateTable('mail_outbox')
        .set({ locked_until: now + leaseMs, claim_token: token })
        .where('id', '=', id)
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('next_attempt_at', '<=', now)
        .where('locked_until', '<', now)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return null;
      const row = await db
        .selectFrom('mail_outbox')
        .select(['id', 'kind', 'to_address', 'subject', 'text_body', 'html_body', 'attempts', 'created_at'])
        .where('id', '=', id)
        .where('claim_token', '=', token)
        .executeTakeFirst();
      return row ? { ...row, attempts: Number(row.attempts), created_at: Number(row.created_at) } : null;
    },

    /**
     * Pushes the end of every claim held under `tokens` to `leaseMs` from when the query runs (its sends
     * are still running): a time taken before waiting for a connection could already be past.
     */
    async extend(tokens: string[], leaseMs: number): Promise<void> {
      if (tokens.length === 0) return;
      await db
        .updateTable('mail_outbox')
        .set({ locked_until: Date.now() + leaseMs })
        .where('claim_token', 'in', tokens)
        .execute();
    },

    /** Gives the claim up; the mail stays due. */
    async release(id: string, token: string): Promise<void> {
      await underClaim(id, token).set({ locked_until: 0, claim_token: null }).execute();
    },

    /** Delivered: recorded under the claim. False when the claim was lost (nothing written). */
    async markSent(id: string, token: string, attempts: number, now = Date.now()): Promise<boolean> {
      const done = await underClaim(id, token)
        .set({ sent_at: now, attempts, locked_until: 0, claim_token: null, last_error: null, ...CLEARED })
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },

    /** Refused for now: tried again at `nextAt`. */
    async retryAt(id: string, token: string, attempts: number, nextAt: number, error: string): Promise<void> {
      await underClaim(id, token)
        .set({ attempts, next_attempt_at: nextAt, locked_until: 0, claim_token: null, last_error: error.slice(0, 500) })
        .execute();
    },

    /** Final: marked failed with its reason, the bodies cleared. */
    async markFailed(id: string, token: string, attempts: number, error: string, now = Date.now()): Promise<void> {
      await underClaim(id, token)
        .set({
          attempts,
          locked_until: 0,
          claim_token: null,
          last_error: error.slice(0, 500),
          failed_at: now,
          ...CLEARED,
        })
        .execute();
    },

    /** When the next pending mail is due (undefined: none pending). */
    async nextDueAt(): Promise<number | undefined> {
      const next = await db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.min('next_attempt_at').as('at'))
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .executeTakeFirst();
      return next?.at == null ? undefined : Number(next.at);
    },

    /** Mails waiting (not delivered, not given up) and the creation time of the oldest (`/metrics`). */
    async pending(): Promise<{ count: number; oldest: number | undefined }> {
      const row = await db
        .selectFrom('mail_outbox')
        .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.min('created_at').as('oldest')])
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .executeTakeFirst();
      return { count: Number(row?.pending ?? 0), oldest: row?.oldest == null ? undefined : Number(row.oldest) };
    },

    /** Mails given up, newest first: `npm run admin -- mail failed`. */
    failed(limit = 100) {
      return db
        .selectFrom('mail_outbox')
        .select(['to_address', 'kind', 'attempts', 'failed_at', 'last_error', 'created_at'])
        .where('failed_at', 'is not', null)
        .orderBy('failed_at', 'desc')
        .limit(limit)
        .execute();
    },

    /** Deletes delivered and failed rows older than `keepMs` (the purge job). Returns how many. */
    async purgeDone(now = Date.now(), keepMs = KEEP_DONE_MS): Promise<number> {
      const done = await db
        .deleteFrom('mail_outbox')
        .where((eb) => eb.or([eb('sent_at', '<', now - keepMs), eb('failed_at', '<', now - keepMs)]))
        .executeTakeFirst();
      return Number(done.numDeletedRows);
    },
  };
}
