import { isEmailShape, normalizeEmail, type CodePurpose, type Language } from '@suite/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors.js';
import type { AccountsDeps } from '../deps.js';
import { codesRepository, type CodeKeys, type CodeOutcome } from './repository.js';
import { recordAudit } from '../../audit/index.js';

/** What the sign-up and the recovery flows share: addresses, sending codes, answering code checks. */

const codeKeys = (deps: AccountsDeps): CodeKeys => ({
  hmac: deps.config.keys.code,
  scale: deps.config.rateLimitScale,
  ttlMs: deps.config.codeTtlMs,
});

/** A well-formed address in its canonical form (normalizeEmail: a fully-qualified domain's trailing dots dropped), or ERR_INVALID_EMAIL. */
export function addressOf(raw: string): string {
  const email = normalizeEmail(raw);
  if (!email || !isEmailShape(email)) throw new AppError('ERR_INVALID_EMAIL');
  return email;
}

const mailKind = (purpose: CodePurpose) => (purpose === 'confirm' ? 'confirm-code' : 'recovery-code');

/**
 * The request that asked for a code, as plain values (the routes read them; services stay free of
 * HTTP): a code that replaces a pending one says in its mail when and from which browser it was asked.
 */
export interface CodeAsker {
  at: number;
  userAgent: string;
}

/**
 * Stores a new code (replacing only the expired `replacing` one when given) and, when `mail`, queues
 * its mail with `db`: pass the caller's transaction. The caller kicks the mailer after it commits.
 */
export async function queueCode(
  deps: AccountsDeps,
  db: Kysely<Database>,
  to: {
    email: string;
    purpose: CodePurpose;
    language: Language;
    mail: boolean;
    asker: CodeAsker;
    /** A person asked again: inside the spacing the answer is ERR_CODE_SENT_RECENTLY (codes/repository.ts). */
    again?: boolean;
  },
  replacing?: string,
): Promise<void> {
  const codes = codesRepository(db);
  const replaces = to.mail && (await codes.pending(to.email, to.purpose, replacing !== undefined));
  const code = await codes.issue(codeKeys(deps), to.email, to.purpose, replacing, to.again);
  if (code && to.mail) {
    await deps.mailer.queue(db, {
      kind: mailKind(to.purpose),
      to: to.email,
      language: to.language,
      code,
      ...(replaces ? { resent: to.asker } : {}),
    });
    await recordAudit(db, { kind: 'code_mailed', action: to.purpose, target: { id: null, email: to.email } });
  }
}

/** Forgets any code of (email, purpose), with `db` (the caller's transaction). */
export const forgetCode = (db: Kysely<Database>, email: string, purpose: CodePurpose) =>
  codesRepository(db).drop(email, purpose);

/** Checks a submitted code with `db` (the transaction that applies its effect). */
export const checkCode = (
  deps: AccountsDeps,
  db: Kysely<Database>,
  email: string,
  purpose: CodePurpose,
  code: string,
) => codesRepository(db).check(codeKeys(deps), email, purpose, code);

/**
 * Stores a new code and queues its mail in one transaction, then wakes the mail worker. `again`: a
 * person asked for another code (a resend): within a minute of the last one it is refused, alike for
 * addresses with and without an account (those store a code that is never mailed).
 */
export async function sendCode(
  deps: AccountsDeps,
  email: string,
  purpose: CodePurpose,
  language: Language,
  asker: CodeAsker,
  mail = true,
  again = false,
): Promise<void> {
  await deps.db.transaction().execute((trx) => queueCode(deps, trx, { email, purpose, language, mail, asker, again }));
  if (mail) deps.mailer.kick();
}

/** Turns a code check outcome into the catalogue answer; an expired code triggers one new mail. */
export async function answerCode(
  deps: AccountsDeps,
  outcome: CodeOutcome,
  email: string,
  purpose: CodePurpose,
  language: Language,
  mail: boolean,
  asker: CodeAsker,
): Promise<void> {
  if (outcome.kind === 'ok') return;
  if (outcome.kind === 'invalid') throw new AppError('INVALID_TOKEN');
  if (outcome.kind === 'max_tries') throw new AppError('ERR_MAX_TRIES_EXCEEDED');
  await deps.db
    .transaction()
    .execute((trx) => queueCode(deps, trx, { email, purpose, language, mail, asker }, outcome.hash));
  deps.mailer.kick();
  throw new AppError('ERR_TOKEN_EXPIRED');
}
