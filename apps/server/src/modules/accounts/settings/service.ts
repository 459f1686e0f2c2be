import type { SessionResponse } from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { SessionUser } from '../../../plugins/auth.js';
import type { AccountsDeps } from '../deps.js';
import { checkNewPassword, hashPassword } from '../identity/passwords.js';
import { usersRepository } from '../identity/repository.js';
import { issuedAfter, sessionFor } from '../identity/sessions.js';

/** New password for the signed-in user; every other session ends, the returned one stays valid. */
export async function updatePassword(
  deps: AccountsDeps,
  session: SessionUser,
  id: string,
  input: { password: string; password_confirmation: string },
): Promise<SessionResponse> {
  if (id !== session.id) throw new AppError('ERR_FORBIDDEN');
  checkNewPassword(input.password, input.password_confirmation);
  const users = usersRepository(deps.db);
  const user = await users.byId(id);
  if (!user) throw new AppError('ERR_FORBIDDEN');
  const now = Date.now();
  await users.setPassword(id, await hashPassword(input.password), now);
  return sessionFor(deps, user, issuedAfter(now));
}
