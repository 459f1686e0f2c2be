import { sessionMethodOf, type ActiveSession, type LogoutResponse, type MeResponse } from '@suite/contract';
import { AppError } from '../../../errors.js';
import { sessionsRepository } from '../../../plugins/sessions-repository.js';
import type { SessionUser } from '../../../plugins/auth.js';
import type { AccountsDeps } from '../deps.js';
import { usersRepository } from '../identity/repository.js';
import { ssoLogoutFlow } from '../sso/logout.js';
import { recordAudit } from '../../audit/index.js';
import { totpOn } from '../strategies/totp/service.js';

type WarnLog = { warn(details: object, message: string): void };

/** Where this browser ends its provider's session too; a provider that cannot be reached keeps nothing alive. */
function providerLogoutUrl(deps: AccountsDeps, session: SessionUser, log: WarnLog): Promise<string | undefined> {
  return ssoLogoutFlow(deps)
    .providerLogoutUrl(session.sessionId)
    .catch((error: unknown) => {
      log.warn({ err: error }, 'sso: provider logout unavailable');
      return undefined;
    });
}

/**
 * Ends this session (this device) only. A session that came from a provider with a logout endpoint
 * answers where the browser goes next to end the provider's session too (single logout); a provider
 * that cannot be reached does not keep ours alive.
 */
export async function logout(deps: AccountsDeps, session: SessionUser, log: WarnLog): Promise<LogoutResponse> {
  const logoutUrl = await providerLogoutUrl(deps, session, log);
  await deps.sessions.revoke(session.id, { only: session.sessionId });
  return logoutUrl ? { ok: true, logout_url: logoutUrl } : { ok: true };
}

/**
 * "Sign out of all devices": ends every session of the user, this one included. When this session came
 * from a provider with a logout endpoint, this device's browser is sent there too (as a sign-out does):
 * the provider sessions of the other devices live in their own browsers, out of our reach, but none of
 * them holds a session here any more.
 */
export async function logoutAll(deps: AccountsDeps, session: SessionUser, log: WarnLog): Promise<LogoutResponse> {
  const logoutUrl = await providerLogoutUrl(deps, session, log);
  await deps.db.transaction().execute(async (trx) => {
    await deps.sessions.revoke(session.id, {}, trx);
    await recordAudit(trx, {
      kind: 'session_ended',
      action: 'logout_all',
      target: { id: session.id, email: session.email },
    });
  });
  return logoutUrl ? { ok: true, logout_url: logoutUrl } : { ok: true };
}

/** The user's active sessions (devices), most recently seen first. */
export async function activeSessions(deps: AccountsDeps, session: SessionUser): Promise<{ data: ActiveSession[] }> {
  const rows = await sessionsRepository(deps.db).listActive(session.id, Date.now());
  return {
    data: rows.map((row) => ({
      _id: row.id,
      device: row.user_agent,
      // A value an older or newer version stored and this one does not name is left out, not a 500.
      method: sessionMethodOf(row.method),
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
    ...(await policyNotice(deps, session)),
  };
}

/**
 * The banner of a domain that requires two-step verification, while its grace runs, for a person without
 * it. The grace comes with the session check; the second factor is looked up only while it runs.
 */
async function policyNotice(deps: AccountsDeps, session: SessionUser): Promise<Partial<MeResponse>> {
  const until = session.twoStepGraceUntil;
  if (until === null || until <= Date.now()) return {};
  if (await totpOn(deps, session.id)) return {};
  return { policy_notice: { two_step_required_by: new Date(until).toISOString() } };
}
