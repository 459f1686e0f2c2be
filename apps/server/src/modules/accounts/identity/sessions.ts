import type { IssueOptions } from '../../../plugins/auth.js';
import type { SessionResponse } from '@suite/contract';
import { AppError } from '../../../errors.js';
import type { AccountsDeps } from '../deps.js';
import { usersRepository, type UserRow } from './repository.js';

function preferencesOf(user: UserRow): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(user.preferences);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * `{ token, profiles }` for a user: the JWT payload is the spec's `user {_id, email, preferences,
 * profile_id}` with the first (acting) profile. iat has one-second precision and the auth plugin
 * rejects `iat*1000 <= sessions_valid_after`, so a session issued in the second of a revocation is
 * dated the next second (`issuedAt` is passed when the caller has just revoked).
 *
 * An account that has not finished registering (the code step, an accepted invite, a first single
 * sign-on) gets a 'welcome' session: the welcome step and its screen, nothing else. The
 * welcome step's answer is a full session.
 */
export async function sessionFor(
  deps: AccountsDeps,
  user: UserRow,
  options: IssueOptions = {},
): Promise<SessionResponse> {
  const { issuedAt, ...issue } = options;
  const profiles = await usersRepository(options.db ?? deps.db).profilesOf(user);
  const acting = profiles[0];
  if (!acting) throw new AppError('ERR_COULD_NOT_GET_PROFILE');
  const token = await deps.sessions.issue(
    { _id: user.id, email: user.email, preferences: preferencesOf(user), profile_id: acting._id },
    {
      ...issue,
      db: options.db ?? deps.db,
      kind: issue.kind ?? (user.registered_at === null ? 'welcome' : 'session'),
      issuedAt: issuedAt ?? Math.max(Math.floor(Date.now() / 1000), issuedAfter(Number(user.sessions_valid_after))),
    },
  );
  return { token, profiles };
}

/** The second after `now`: a session issued "then" is newer than a revocation made at `now`. */
const issuedAfter = (now: number) => Math.floor(now / 1000) + 1;
