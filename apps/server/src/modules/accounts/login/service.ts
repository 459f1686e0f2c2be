import {
  isEmailShape,
  normalizeEmail,
  emailDomain,
  type ActiveSession,
  type MeResponse,
  type SessionResponse,
} from '@suite/contract';
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
export async function login(
  deps: AccountsDeps,
  input: { login: string; password: string; device?: string | null },
): Promise<SessionResponse> {
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
  return sessionFor(deps, known, { device: input.device });
}

/** Ends this session (this device) only. */
export async function logout(deps: AccountsDeps, session: SessionUser): Promise<{ ok: true }> {
  await deps.sessions.revoke(session.id, { only: session.sessionId });
  return { ok: true };
}

/** "Sign out of all devices": ends every session of the user, this one included. */
export async function logoutAll(deps: AccountsDeps, session: SessionUser): Promise<{ ok: true }> {
  await deps.sessions.revoke(session.id);
  return { ok: true };
}

/** The user's active sessions (devices), most recently seen first. */
export async function activeSessions(deps: AccountsDeps, session: SessionUser): Promise<{ data: ActiveSession[] }> {
  const rows = await deps.db
    .selectFrom('sessions')
    .select(['id', 'user_agent', 'created_at', 'last_seen_at'])
    .where('user_id', '=', session.id)
    .where('kind', '=', 'session')
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', Date.now())
    .orderBy('last_seen_at', 'desc')
    .limit(100)
    .execute();
  return {
    data: rows.map((row) => ({
      _id: row.id,
      device: row.user_agent,
      created_at: new Date(Number(row.created_at)).toISOString(),
      last_seen_at: new Date(Number(row.last_seen_at)).toISOString(),
      current: row.id === session.sessionId,
    })),
  };
}

/** Ends one of the user's own sessions; another user's (or an unknown) id is not found. */
export async function endSession(deps: AccountsDeps, session: SessionUser, id: string): Promise<{ ok: true }> {
  if ((await deps.sessions.revoke(session.id, { only: id })) !== 1) throw new AppError('ERR_NOT_FOUND');
  return { ok: true };
}

export async function me(deps: AccountsDeps, session: SessionUser): Promise<MeResponse> {
  // The session check read the account with the session: only the profiles are left to read.
  return {
    _id: session.id,
    email: session.email,
    confirmed: session.confirmed,
    registered: session.registered,
    profiles: await usersRepository(deps.db).profilesOf(session),
  };
}
