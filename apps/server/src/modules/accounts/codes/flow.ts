import { isEmailShape, normalizeEmail, type CodePurpose, type Language } from '@suite/contract';
import { AppError } from '../../../errors.js';
import { issueCode, type CodeKeys, type CodeOutcome } from './codes.js';
import type { AccountsDeps } from '../deps.js';

/** What the sign-up and the recovery flows share: addresses, sending codes, answering code checks. */

export const codeKeys = (deps: AccountsDeps): CodeKeys => ({
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

/** Stores a new code and queues its mail in one transaction, then wakes the mail worker. */
export async function sendCode(
  deps: AccountsDeps,
  email: string,
  purpose: CodePurpose,
  language: Language,
  mail = true,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const code = await issueCode(trx, codeKeys(deps), email, purpose);
    if (code && mail)
      await deps.mailer.queue(trx, {
        kind: purpose === 'confirm' ? 'confirm-code' : 'recovery-code',
        to: email,
        language,
        code,
      });
  });
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
): Promise<void> {
  if (outcome.kind === 'ok') return;
  if (outcome.kind === 'invalid') throw new AppError('INVALID_TOKEN');
  if (outcome.kind === 'max_tries') throw new AppError('ERR_MAX_TRIES_EXCEEDED');
  await deps.db.transaction().execute(async (trx) => {
    const code = await issueCode(trx, codeKeys(deps), email, purpose, outcome.hash);
    const kind = purpose === 'confirm' ? 'confirm-code' : 'recovery-code';
    if (code && mail) await deps.mailer.queue(trx, { kind, to: email, language, code });
  });
  deps.mailer.kick();
  throw new AppError('ERR_TOKEN_EXPIRED');
}
