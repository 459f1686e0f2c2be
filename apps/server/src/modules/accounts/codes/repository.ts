import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CODE_LENGTH, CODE_MAIL_SPACING_S, MAX_CODE_TRIES, type CodePurpose } from '@suite/contract';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors.js';
import type { KeyRing } from '../../../keys.js';

/**
 * Code mails per address and purpose (sign-up repeats, resends, automatic resends) in one window: a
 * last-resort cap against mail bombing, above what the spacing (one mail a CODE_MAIL_SPACING_S) lets
 * through, so that a stranger cannot spend the owner's budget (docs/security.md).
 */
export const SEND_BUDGET = 30;
const SEND_WINDOW_MS = 15 * 60 * 1000;

export interface CodeKeys {
  /** HMAC keys (keys.ts: the first one hashes new codes, each one checks), so a leaked table does not give the codes away by brute force. */
  hmac: KeyRing;
  /** RATE_LIMIT_SCALE: tests raise the budget (and, above 1, lift the spacing). */
  scale: number;
  /** How long a new code lives (config CODE_TTL_SECONDS). */
  ttlMs: number;
}

/** The spacing of code mails to one address; RATE_LIMIT_SCALE above 1 (the suites, load tests) lifts it. */
const spacing = (scale: number) => (scale > 1 ? 0 : CODE_MAIL_SPACING_S * 1000);

const hashCode = (key: Uint8Array, purpose: CodePurpose, email: string, code: string) =>
  createHmac('sha256', key).update(`code\n${purpose}\n${email}\n${code}`).digest('hex');

const newCode = () => String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');

export type CodeOutcome =
  { kind: 'ok' } | { kind: 'invalid' } | { kind: 'max_tries' } | { kind: 'expired'; hash: string };

/**
 * Whole seconds until a window of `windowMs` opened at `since` is over: at least 1, never more than the
 * window (a parallel request, a double click, may have stored a clock reading a millisecond after `now`).
 */
const secondsLeft = (since: number, windowMs: number, now: number): number =>
  Math.min(windowMs / 1000, Math.max(1, Math.ceil((since + windowMs - now) / 1000)));

/**
 * E-mailed codes, stored as HMACs per (address, purpose). `db` may be a transaction: run a check in
 * the transaction that applies its effect.
 */
export function codesRepository(db: Kysely<Database>) {
  /**
   * Stores a fresh code for (email, purpose), killing the previous one, and returns it for mailing.
   * The send budget is checked in the UPDATE itself, so parallel requests cannot overspend it; over
   * budget: 429 with Retry-After. Within CODE_MAIL_SPACING_S of the previous code, while that code can
   * still be used, nothing changes (null: the code mailed moments ago is the one to use; the caller
   * answers as usual, so the spacing reveals nothing). With `replacing`, only that exact (expired) code
   * is replaced, so parallel submissions of an expired code send one new code, not many (null: another
   * one did). With `refuseWithinSpacing` (a person asking again: "Send again", the recovery form) the
   * spacing answers ERR_CODE_SENT_RECENTLY with Retry-After instead, so that the screen can say so.
   */
  async function issue(
    keys: CodeKeys,
    email: string,
    purpose: CodePurpose,
    replacing?: string,
    refuseWithinSpacing = false,
  ): Promise<string | null> {
    const now = Date.now();
    const windowOver = now - SEND_WINDOW_MS;
    const budget = Math.max(1, Math.round(SEND_BUDGET * keys.scale));
    const spacingMs = spacing(keys.scale);
    // A first code for this address: a placeholder row (never valid) that the UPDATE below fills in.
    await db
      .insertInto('codes')
      .values({ email, purpose, code_hash: '', expires_at: 0, created_at: now, sends: 0, sends_window_started_at: now })
      .onConflict((oc) => oc.columns(['email', 'purpose']).doNothing())
      .execute();
    const code = newCode();
    let update = db
      .updateTable('codes')
      .set((eb) => ({
        code_hash: hashCode(keys.hmac.sign, purpose, email, code),
        attempts: 0,
        expires_at: now + keys.ttlMs,
        consumed_at: null,
        created_at: now,
        sends: eb
          .case()
          .when('sends_window_started_at', '<=', windowOver)
          .then(1)
          .else(eb('sends', '+', 1))
          .end(),
        sends_window_started_at: eb
          .case()
          .when('sends_window_started_at', '<=', windowOver)
          .then(now)
          .else(eb.ref('sends_window_started_at'))
          .end(),
      }))
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .where((eb) => eb.or([eb('sends', '<', budget), eb('sends_window_started_at', '<=', windowOver)]));
    if (replacing !== undefined) update = update.where('code_hash', '=', replacing);
    // No spacing (RATE_LIMIT_SCALE above 1): no time condition at all; `created_at <= now` would refuse
    // a call whose `now` is a millisecond behind a parallel one's.
    else if (spacingMs > 0)
      update = update.where((eb) =>
        eb.or([
          eb('sends', '=', 0),
          eb('created_at', '<=', now - spacingMs),
          eb('attempts', '>=', MAX_CODE_TRIES),
          eb('consumed_at', 'is not', null),
        ]),
      );
    const done = await update.executeTakeFirst();
    if (Number(done.numUpdatedRows) === 1) return code;

    const row = await db
      .selectFrom('codes')
      .select(['code_hash', 'sends', 'sends_window_started_at', 'created_at'])
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .executeTakeFirstOrThrow();
    if (replacing !== undefined && row.code_hash !== replacing) return null;
    // Within the spacing, the code mailed moments ago stays the one to use: no new code, no new mail.
    if (row.sends < budget || row.sends_window_started_at <= windowOver) {
      if (refuseWithinSpacing && replacing === undefined && spacingMs > 0)
        throw new AppError('ERR_CODE_SENT_RECENTLY', { retryAfterS: secondsLeft(row.created_at, spacingMs, now) });
      return null;
    }
    throw new AppError('ERR_RATE_LIMITED', {
      retryAfterS: secondsLeft(row.sends_window_started_at, SEND_WINDOW_MS, now),
    });
  }

  /**
   * Checks a submitted code. Wrong guesses are counted in SQL (`attempts < MAX` in the WHERE), so
   * parallel guesses cannot exceed the maximum; consumption is a conditional UPDATE, so of several
   * parallel correct submissions exactly one succeeds. Run it in the transaction that applies the effect.
   */
  async function check(keys: CodeKeys, email: string, purpose: CodePurpose, code: string): Promise<CodeOutcome> {
    const now = Date.now();
    const row = await db
      .selectFrom('codes')
      .selectAll()
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row || row.consumed_at !== null || row.code_hash.length !== 64) return { kind: 'invalid' };
    if (row.attempts >= MAX_CODE_TRIES) return { kind: 'max_tries' };
    if (row.expires_at <= now) return { kind: 'expired', hash: row.code_hash };

    const live = db
      .updateTable('codes')
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .where('code_hash', '=', row.code_hash)
      .where('consumed_at', 'is', null)
      .where('attempts', '<', MAX_CODE_TRIES);
    const stored = Buffer.from(row.code_hash, 'hex');
    const matches = keys.hmac.verify.map((key) =>
      timingSafeEqual(Buffer.from(hashCode(key, purpose, email, code), 'hex'), stored),
    );
    if (matches.includes(true)) {
      const done = await live.set({ consumed_at: now }).where('expires_at', '>', now).executeTakeFirst();
      return Number(done.numUpdatedRows) === 1 ? { kind: 'ok' } : { kind: 'invalid' };
    }
    const counted = await live
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .returning('attempts')
      .executeTakeFirst();
    if (!counted) return { kind: 'max_tries' };
    return counted.attempts >= MAX_CODE_TRIES ? { kind: 'max_tries' } : { kind: 'invalid' };
  }

  /** Codes expired a day ago are useless, and their send window (15 min) is long over. */
  async function purgeExpired(now = Date.now()): Promise<number> {
    const done = await db
      .deleteFrom('codes')
      .where('expires_at', '<', now - 86_400_000)
      .executeTakeFirst();
    return Number(done.numDeletedRows);
  }

  /**
   * Whether (email, purpose) has a code still pending: unused, and unexpired unless `expiredToo` (the
   * expired code being replaced). A new code issued in its place is a resent one: its mail says so.
   */
  async function pending(email: string, purpose: CodePurpose, expiredToo: boolean): Promise<boolean> {
    const row = await db
      .selectFrom('codes')
      .select(['code_hash', 'consumed_at', 'expires_at'])
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    return (
      row !== undefined &&
      row.code_hash !== '' &&
      row.consumed_at === null &&
      (expiredToo || row.expires_at > Date.now())
    );
  }

  /** Forgets the code row of (email, purpose): a new account starts with none (see signup/service.ts). */
  async function drop(email: string, purpose: CodePurpose): Promise<void> {
    await db.deleteFrom('codes').where('email', '=', email).where('purpose', '=', purpose).execute();
  }

  return { issue, check, pending, purgeExpired, drop };
}

export type CodesRepository = ReturnType<typeof codesRepository>;
