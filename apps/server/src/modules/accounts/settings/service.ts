import type { LoginResponse } from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { SessionUser } from '../../../plugins/auth.js';
import { userLanguage } from '../language.js';
import type { AccountsDeps } from '../deps.js';
import { checkNewPassword, hashPassword, verifyPassword } from '../strategies/password/passwords.js';
import { usersRepository } from '../identity/repository.js';
import { sessionFor } from '../identity/sessions.js';
import { startSecondStep, totpOn } from '../strategies/totp/service.js';

/**
 * New password (PUT /user/{id}). With the recovery token: nothing more is asked; the token is spent
 * and every session ends, then the answer signs in (a new session). With a normal session: the
 * current password is required (ASVS 5.0 V6.2.3); every other session ends, the token in hand stays
 * and is handed back.
 */
export async function updatePassword(
  deps: AccountsDeps,
  session: SessionUser,
  id: string,
  input: { password: string; password_confirmation: string; current_password?: string | undefined },
): Promise<LoginResponse> {
  if (id !== session.id) throw new AppError('ERR_FORBIDDEN');
  const users = usersRepository(deps.db);
  const user = await users.byId(id);
  if (!user) throw new AppError('ERR_FORBIDDEN');
  if (session.kind === 'session') {
    if (!input.current_password) {
      throw new AppError('ERR_VALIDATION', { details: [{ path: 'current_password', message: 'required' }] });
    }
    if (!(await verifyPassword(user.password_hash, input.current_password))) {
      throw new AppError('ERR_WRONG_CURRENT_PASSWORD');
    }
  }
  await checkNewPassword(input.password, input.password_confirmation);
  const passwordHash = await hashPassword(input.password);
  const secondStep = session.kind === 'recovery' && (await totpOn(deps, id));
  // The new password, the sessions it ends and the one it hands out commit together: a failure between
  // them would leave the new password set and the retry refused (its current_password, or its recovery
  // token, no longer good).
  const answer = await deps.db.transaction().execute(async (trx) => {
    await usersRepository(trx).setPassword(id, passwordHash);
    await deps.mailer.queue(trx, { kind: 'password-changed', to: user.email, language: userLanguage(user) });
    if (session.kind === 'recovery') {
      await deps.sessions.revoke(id, {}, trx);
      // A recovery does not get past two-step verification: the new password leads to the code step.
      if (secondStep) return startSecondStep({ ...deps, db: trx }, user);
      return sessionFor(deps, user, { db: trx });
    }
    await deps.sessions.revoke(id, { except: session.sessionId }, trx);
    return { token: session.token, profiles: await usersRepository(trx).profilesOf(user) };
  });
  deps.mailer.kick();
  return answer;
}
