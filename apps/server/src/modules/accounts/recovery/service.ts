import { normalizeEmail, type Language, type SessionResponse } from '@suite/contract';
import { AppError } from '../../../errors.js';
import { domainsRepository } from '../domains/repository.js';
import { addressOf, answerCode, checkCode, sendCode, type CodeAsker } from '../codes/flow.js';
import type { AccountsDeps } from '../deps.js';
import { usersRepository } from '../identity/repository.js';
import { sessionFor } from '../identity/sessions.js';
import { amrOf, assurance, mayRecoverByMail } from '../policy/index.js';
import { emailCodeMethod } from '../strategies/email-code/method.js';

/** Password recovery: e-mail, code check, then PUT /user/{id} with the session it answers. */

/**
 * Always 200 with the same body: whether the address has an account is not revealed. A code row is
 * stored for unknown addresses too (never mailed), so the code step answers alike for both.
 */
export async function forgotPassword(
  deps: AccountsDeps,
  rawEmail: string,
  language: Language,
  asker: CodeAsker,
): Promise<{ message: string }> {
  if (!rawEmail.trim()) throw new AppError('ERR_EMAIL_NOT_PROVIDED');
  const email = addressOf(rawEmail);
  // Inside the minute after a code, no new one and no refusal either: the owner's own request, among a
  // stranger's many, is answered as always, and the code already in the inbox is the one to use.
  await sendCode(deps, email, 'recovery', language, asker, await canRecover(deps, email));
  return { message: 'If the address has an account, a recovery code has been sent.' };
}

/** Recovery by mail is the e-mailed code as a sign-in method: the policy says where it is allowed. */
async function canRecover(deps: AccountsDeps, email: string): Promise<boolean> {
  const user = await usersRepository(deps.db).byEmail(email);
  if (!user?.confirmed_at) return false;
  return mayRecoverByMail(user, await domainsRepository(deps.db).rules(user.domain), emailCodeMethod);
}

export async function forgotPasswordConfirm(
  deps: AccountsDeps,
  input: { token: string; email: string },
  language: Language,
  asker: CodeAsker,
): Promise<SessionResponse> {
  const email = normalizeEmail(input.email);
  // The code is consumed and the recovery token written in one transaction: a failure before the commit
  // leaves the code usable for the retry.
  const { outcome, session } = await deps.db.transaction().execute(async (trx) => {
    const result = await checkCode(deps, trx, email, 'recovery', input.token);
    if (result.kind !== 'ok') return { outcome: result, session: null };
    const user = await usersRepository(trx).byEmail(email);
    if (!user?.confirmed_at || !(await canRecover({ ...deps, db: trx }, email)))
      return { outcome: result, session: null };
    // Not a session: a single-purpose token (15 minutes) only PUT /user/{id} accepts, once.
    const session = await sessionFor(deps, user, {
      kind: 'recovery',
      db: trx,
      method: 'recovery',
      amr: amrOf([emailCodeMethod]),
      aal: assurance([emailCodeMethod]),
    });
    return { outcome: result, session };
  });
  await answerCode(deps, outcome, email, 'recovery', language, await canRecover(deps, email), asker);
  if (!session) throw new AppError('INVALID_TOKEN');
  return session;
}
