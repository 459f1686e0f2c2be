import { isEmailShape, normalizeEmail, emailDomain, type SessionResponse } from '@suite/contract';
import { AppError } from '../../errors.js';
import type { SessionUser } from '../../plugins/auth.js';
import { domainRules } from '../domains/repository.js';
import type { AccountsDeps } from '../users/deps.js';
import { verifyPassword } from '../users/passwords.js';
import { findUserByEmail, revokeSessions } from '../users/repository.js';
import { sessionFor } from '../users/session.js';

/**
 * Unknown address and wrong password answer alike (same status, body, and an argon2 verification
 * either way). Domain rules come first: they say nothing about one particular address.
 */
export async function login(deps: AccountsDeps, input: { login: string; password: string }): Promise<SessionResponse> {
  const raw = input.login.trim().replace(/\.+$/, '');
  if (!raw || !input.password) throw new AppError('ERR_VALIDATION');
  const email = normalizeEmail(raw);
  const known = isEmailShape(raw) ? await findUserByEmail(deps.db, email) : undefined;
  if (isEmailShape(raw)) {
    const rules = await domainRules(deps.db, emailDomain(email));
    if (!rules.active) throw new AppError('ERR_DOMAIN_DISABLED');
    if (rules.ssoOnly) throw new AppError('ERR_SSO_LOGIN_ONLY');
  }
  const ok = await verifyPassword(known?.confirmed_at ? known.password_hash : null, input.password);
  // Sign-up sets the password after confirmation, so an unconfirmed account has none to check.
  if (known && !known.confirmed_at) throw new AppError('ERR_USER_NOT_CONFIRMED');
  if (!known || !ok) throw new AppError('ERR_INVALID_CREDENTIALS');
  if (!known.active) throw new AppError('ERR_USER_NOT_ACTIVE');
  return sessionFor(deps, known);
}

/** Ends every session of the user issued up to now (sessions carry no id to end just one). */
export async function logout(deps: AccountsDeps, session: SessionUser): Promise<{ ok: true }> {
  await revokeSessions(deps.db, session.id, Date.now());
  return { ok: true };
}
