import { ACCEPTED_TERMS_VERSION, type MeResponse, type SessionResponse } from '@suite/contract';
import { AppError } from '../../errors.js';
import { requireDisplayName } from '../../names.js';
import type { SessionUser } from '../../plugins/auth.js';
import type { AccountsDeps } from './deps.js';
import { checkNewPassword, hashPassword } from './passwords.js';
import { completeRegistration, findUserById, profilesOf, setPassword } from './repository.js';
import { issuedAfter, sessionFor } from './session.js';

/** The signed-in account: finishing registration, changing the password, who am I. */

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
  checkNewPassword(input.password, input.password_confirmation);
  const user = await findUserById(deps.db, session.id);
  if (!user?.confirmed_at || user.registered_at) throw new AppError('ERR_FORBIDDEN');
  const passwordHash = await hashPassword(input.password);
  const done = await completeRegistration(deps.db, user.id, {
    firstName,
    lastName,
    passwordHash,
    termsVersion: ACCEPTED_TERMS_VERSION,
  });
  if (!done) throw new AppError('ERR_FORBIDDEN');
  return sessionFor(deps, user);
}

/** New password for the signed-in user; every other session ends, the returned one stays valid. */
export async function updatePassword(
  deps: AccountsDeps,
  session: SessionUser,
  id: string,
  input: { password: string; password_confirmation: string },
): Promise<SessionResponse> {
  if (id !== session.id) throw new AppError('ERR_FORBIDDEN');
  checkNewPassword(input.password, input.password_confirmation);
  const user = await findUserById(deps.db, id);
  if (!user) throw new AppError('ERR_FORBIDDEN');
  const now = Date.now();
  await setPassword(deps.db, id, await hashPassword(input.password), now);
  return sessionFor(deps, user, issuedAfter(now));
}

export async function me(deps: AccountsDeps, session: SessionUser): Promise<MeResponse> {
  const user = await findUserById(deps.db, session.id);
  if (!user) throw new AppError('ERR_INVALID_ACCESS_TOKEN');
  return {
    _id: user.id,
    email: user.email,
    confirmed: user.confirmed_at !== null,
    registered: user.registered_at !== null,
    profiles: await profilesOf(deps.db, user),
  };
}
