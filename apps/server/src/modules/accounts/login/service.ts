import { isEmailShape, normalizeEmail, emailDomain, type MeResponse, type SessionResponse } from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { SessionUser } from '../../../plugins/auth.js';
import { domainsRepository } from '../domains/repository.js';
import type { AccountsDeps } from '../deps.js';
import { verifyPassword } from '../identity/passwords.js';
import { awaitsCodeStep, usersRepository } from '../identity/repository.js';
import { sessionFor } from '../identity/sessions.js';

/**
 * Unknown address and wrong password answer alike (same status, body, and an argon2 verification
 * either way). Domain rules come first: they say nothing about one particular address.
 */
export async function login(deps: AccountsDeps, input: { login: string; password: string }): Promise<SessionResponse> {
  const email = normalizeEmail(input.login);
  if (!email || !input.password) throw new AppError('ERR_VALIDATION');
  const shaped = isEmailShape(email);
  const known = shaped ? await usersRepository(deps.db).byEmail(email) : undefined;
  if (shaped) {
    const rules = await domainsRepository(deps.db).rules(emailDomain(email));
    if (!rules.active) throw new AppError('ERR_DOMAIN_DISABLED');
    if (rules.ssoOnly) throw new AppError('ERR_SSO_LOGIN_ONLY');
  }
  const waiting = known !== undefined && awaitsCodeStep(known);
  const ok = await verifyPassword(waiting ? null : (known?.password_hash ?? null), input.password);
  // The password is set after the code step, so an account still waiting for it has none to check;
  // "not confirmed" lets the screen offer "Send again", which leads through the code to the welcome step.
  if (waiting) throw new AppError('ERR_USER_NOT_CONFIRMED');
  if (!known || !ok) throw new AppError('ERR_INVALID_CREDENTIALS');
  if (!known.active) throw new AppError('ERR_USER_NOT_ACTIVE');
  return sessionFor(deps, known);
}

/** Ends every session of the user issued up to now (sessions carry no id to end just one). */
export async function logout(deps: AccountsDeps, session: SessionUser): Promise<{ ok: true }> {
  await usersRepository(deps.db).revokeSessions(session.id, Date.now());
  return { ok: true };
}

export async function me(deps: AccountsDeps, session: SessionUser): Promise<MeResponse> {
  const users = usersRepository(deps.db);
  const user = await users.byId(session.id);
  if (!user) throw new AppError('ERR_INVALID_ACCESS_TOKEN');
  return {
    _id: user.id,
    email: user.email,
    confirmed: user.confirmed_at !== null,
    registered: user.registered_at !== null,
    profiles: await users.profilesOf(user),
  };
}
