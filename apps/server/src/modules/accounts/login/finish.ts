import { emailDomain, type LoginResponse, type SessionResponse } from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { SessionMethod } from '../../../plugins/auth.js';
import type { AccountsDeps } from '../deps.js';
import { domainsRepository } from '../domains/repository.js';
import type { UserRow } from '../identity/repository.js';
import { sessionFor } from '../identity/sessions.js';
import { startSecondStep, totpOn } from '../strategies/totp/service.js';

/**
 * Where every credential method (strategies/password, strategies/oidc, strategies/saml,
 * strategies/webauthn, …) ends: the strategy has proved who the person is; this checks that the account
 * and its domain may sign in and issues the per-device session, labelled with the method.
 *
 * Two-step verification (issue 21): a password sign-in of an account with an authenticator app gets
 * no session here but the second step (a short-lived, single-use pending token, stored hashed);
 * `secondFactor: true` is the code step itself coming back with a verified code. Passkey and SSO
 * sign-ins never ask for it (the passkey is itself two factors; the provider does its own).
 */
export async function finishSignIn(
  deps: AccountsDeps,
  user: UserRow,
  options: { method: SessionMethod; device?: string | null; secondFactor?: boolean },
): Promise<LoginResponse> {
  await maySignIn(deps, user);
  if (options.method === 'password' && !options.secondFactor && (await totpOn(deps, user.id))) {
    return startSecondStep(deps, user);
  }
  return sessionFor(deps, user, { device: options.device ?? null, method: options.method });
}

/** finishSignIn for the methods that never take a second step: always a session. */
export async function finishWithSession(
  deps: AccountsDeps,
  user: UserRow,
  options:
    | { method: Exclude<SessionMethod, 'password'>; device?: string | null }
    | { method: 'password'; device?: string | null; secondFactor: true },
): Promise<SessionResponse> {
  const done = await finishSignIn(deps, user, options);
  if (!('token' in done)) throw new AppError('ERR_COULD_NOT_AUTHENTICATE');
  return done;
}

async function maySignIn(deps: AccountsDeps, user: UserRow): Promise<void> {
  if (!user.active) throw new AppError('ERR_USER_NOT_ACTIVE');
  if (!(await domainsRepository(deps.db).rules(emailDomain(user.email))).active) {
    throw new AppError('ERR_DOMAIN_DISABLED');
  }
}
