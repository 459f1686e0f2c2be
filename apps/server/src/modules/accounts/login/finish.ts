import { emailDomain, type SessionResponse } from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { SessionMethod } from '../../../plugins/auth.js';
import type { AccountsDeps } from '../deps.js';
import { domainsRepository } from '../domains/repository.js';
import type { UserRow } from '../identity/repository.js';
import { sessionFor } from '../identity/sessions.js';

/**
 * Where every credential method (strategies/password, strategies/oidc, strategies/saml, …) ends: the
 * strategy has proved who the person is; this checks that the account and its domain may sign in and
 * issues the per-device session, labelled with the method. A second step (issue 21) belongs here.
 */
export async function finishSignIn(
  deps: AccountsDeps,
  user: UserRow,
  options: { method: SessionMethod; device?: string | null },
): Promise<SessionResponse> {
  if (!user.active) throw new AppError('ERR_USER_NOT_ACTIVE');
  if (!(await domainsRepository(deps.db).rules(emailDomain(user.email))).active) {
    throw new AppError('ERR_DOMAIN_DISABLED');
  }
  return sessionFor(deps, user, { device: options.device ?? null, method: options.method });
}
