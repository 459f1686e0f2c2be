import type { FactorRevertResponse, LoginResponse } from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { SessionUser } from '../../../plugins/auth.js';
import { sessionsRepository } from '../../../plugins/sessions-repository.js';
import type { AccountsDeps } from '../deps.js';
import { holderOf, noteFactorChange, revertFactorChange } from '../identity/factor-changes.js';
import { usersRepository } from '../identity/repository.js';
import { sessionFor } from '../identity/sessions.js';
import { domainsRepository } from '../domains/repository.js';
import { amrOf, assurance, requireAllowed } from '../policy/index.js';
import { emailCodeMethod } from '../strategies/email-code/method.js';
import type { MethodDeclaration } from '../strategies/method.js';
import { passwordMethod } from '../strategies/password/method.js';
import { checkNewPassword, hashPassword, verifyPassword } from '../strategies/password/passwords.js';
import { totpOn, useSecondFactor } from '../strategies/totp/service.js';

/**
 * New password (PUT /user/{id}). With a normal session: the current password is required (ASVS 5.0
 * V6.2.3) and is itself the fresh proof the change needs; every other session ends, the token in hand
 * stays and is handed back. With the recovery token: the mailbox is the first factor; an account with
 * two-step verification must give its app or recovery code in the same request, checked before
 * anything changes (the token alone changes nothing there); then every session ends and the answer
 * signs in. Either way the change is a factor change: a notice with its "this wasn't me" link.
 */
export async function updatePassword(
  deps: AccountsDeps,
  session: SessionUser,
  id: string,
  input: {
    password: string;
    password_confirmation: string;
    current_password?: string | undefined;
    code?: string | undefined;
  },
): Promise<LoginResponse> {
  if (id !== session.id) throw new AppError('ERR_FORBIDDEN');
  const user = await usersRepository(deps.db).byId(id);
  if (!user) throw new AppError('ERR_FORBIDDEN');
  const recovery = session.kind === 'recovery';
  if (recovery) {
    // The recovery token is the mailbox's sign-in: checked against the domain's rules of now, not of
    // when it was mailed (a domain made SSO-only since then closes that door too).
    requireAllowed(user, await domainsRepository(deps.db).rules(user.domain), emailCodeMethod);
  } else {
    if (!input.current_password) {
      throw new AppError('ERR_VALIDATION', { details: [{ path: 'current_password', message: 'required' }] });
    }
    if (!(await verifyPassword(user.password_hash, input.current_password))) {
      throw new AppError('ERR_WRONG_CURRENT_PASSWORD');
    }
  }
  await checkNewPassword(input.password, input.password_confirmation, {
    email: user.email,
    appTitle: deps.config.appTitle,
  });
  const proved: MethodDeclaration[] = [recovery ? emailCodeMethod : passwordMethod];
  if (recovery && (await totpOn(deps, id))) {
    if (!input.code?.trim()) throw new AppError('ERR_SECOND_FACTOR_REQUIRED');
    const second = await useSecondFactor(deps, id, input.code);
    // A wrong code here is a second-factor guess like the sign-in's: the owner's alarm counts it.
    if (!second) throw new AppError('ERR_SECOND_STEP_INVALID', { wrongSecret: true });
    proved.push(second);
  }
  const passwordHash = await hashPassword(input.password);
  // The new password, the sessions it ends and the one it hands out commit together: a failure between
  // them would leave the new password set and the retry refused (its current_password, or its recovery
  // token, no longer good).
  const answer = await deps.db.transaction().execute(async (trx) => {
    await usersRepository(trx).setPassword(id, passwordHash);
    const change = { kind: 'password-changed' as const };
    await noteFactorChange(trx, deps.mailer, holderOf(user), change, recovery ? null : session.sessionId);
    if (recovery) {
      return sessionFor(deps, user, { db: trx, method: 'password', amr: amrOf(proved), aal: assurance(proved) });
    }
    await sessionsRepository(trx).markProved(session.sessionId, Date.now(), [passwordMethod.amr], 1);
    return { token: session.token, profiles: await usersRepository(trx).profilesOf(user) };
  });
  deps.mailer.kick();
  return answer;
}

/**
 * "This wasn't me" (the factor-change mail's link): undoes the changes, ends every session; says
 * whether the password was cleared (the page then points to recovery by mail).
 */
export async function revertChange(deps: AccountsDeps, token: string): Promise<FactorRevertResponse> {
  const { passwordCleared } = await revertFactorChange(deps.db, token);
  return { ok: true, password_cleared: passwordCleared };
}
