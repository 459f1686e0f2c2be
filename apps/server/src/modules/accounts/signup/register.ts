import { ACCEPTED_TERMS_VERSION, type SessionResponse } from '@suite/contract';
import { AppError } from '../../../errors.js';
import { requireDisplayName } from '../../../names.js';
import type { SessionUser } from '../../../plugins/auth.js';
import type { AccountsDeps } from '../deps.js';
import { checkNewPassword, hashPassword } from '../strategies/password/passwords.js';
import { usersRepository } from '../identity/repository.js';
import { sessionFor } from '../identity/sessions.js';

/** The welcome step: a confirmed account gets its name, password and terms acceptance. */

export async function completeRegister(
  deps: AccountsDeps,
  session: SessionUser,
  input: {
    first_name: string;
    last_name: string;
    password: string;
    password_confirmation: string;
    accepted_terms?: unknown;
  },
): Promise<SessionResponse> {
  // Names end up in mail subjects and in meetings, seen by others: the contract's one rule.
  const firstName = requireDisplayName(input.first_name, 'first_name');
  const lastName = requireDisplayName(input.last_name, 'last_name');
  const terms = input.accepted_terms as { version?: unknown } | undefined;
  if (terms?.version !== ACCEPTED_TERMS_VERSION) throw new AppError('ACCEPT_TERMS');
  await checkNewPassword(input.password, input.password_confirmation, {
    email: session.email,
    appTitle: deps.config.appTitle,
  });
  const users = usersRepository(deps.db);
  const user = await users.byId(session.id);
  if (!user?.confirmed_at || user.registered_at) throw new AppError('ERR_FORBIDDEN');
  const passwordHash = await hashPassword(input.password);
  // One transaction: a failure anywhere leaves the account unregistered and the confirm step's session
  // valid, so the 503's retry succeeds (before, the registration committed alone and the retry was 403).
  return deps.db.transaction().execute(async (trx) => {
    const done = await usersRepository(trx).completeRegistration(user.id, {
      firstName,
      lastName,
      passwordHash,
      termsVersion: ACCEPTED_TERMS_VERSION,
    });
    if (!done) throw new AppError('ERR_FORBIDDEN');
    // The answer's session replaces the confirm step's one in hand: that one ends (else it would stay
    // valid, unused, and be listed as a second device of the same browser).
    // A full session: the registration is done (the welcome step's session opened only this step).
    // What the welcome step's session proved (the mailbox, a provider, an invite) carries over.
    const next = await sessionFor(deps, user, {
      db: trx,
      kind: 'session',
      amr: session.amr,
      aal: session.aal,
      method: session.method === 'sso' ? 'sso' : 'password',
    });
    await deps.sessions.revoke(user.id, { only: session.sessionId }, trx);
    return next;
  });
}
