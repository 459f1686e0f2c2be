import { decodeToken } from '../../../lib/jwt';
import { currentToken, currentUser, actingProfile } from '../../../lib/session';
import { STORAGE_KEYS, readString } from '../../../lib/storage';

/** Who asks for the meeting token: the signed-in user (bearer) or a guest with the id the server gave. */
export type Identity = { kind: 'user' } | { kind: 'guest'; guestId: string };

/** Signed in → the user endpoint; a stored guestId → the guest endpoint; neither → the guest form first. */
export function currentIdentity(): Identity | null {
  if (currentToken()) return { kind: 'user' };
  const guestId = readString(STORAGE_KEYS.guestId);
  return guestId ? { kind: 'guest', guestId } : null;
}

/** The name Jitsi shows when the query gives none (the JWT's name wins on a JWT-enabled Jitsi anyway). */
export function storedDisplayName(): string | null {
  const info = actingProfile()?.info;
  const name = [info?.first_name, info?.last_name].filter(Boolean).join(' ').trim();
  return name || currentUser()?.email || null;
}

/** Moderator flag of a meeting token given in the `jwt` query parameter (spec §3: from the token). */
export function moderatorFromJwt(jwt: string): boolean {
  const payload = decodeToken<{ moderator?: unknown; context?: { user?: { moderator?: unknown } } }>(jwt);
  const flag = payload?.context?.user?.moderator ?? payload?.moderator;
  return flag === true || flag === 'true';
}

/** The name inside a meeting token (guests: the name they gave on /guest). */
export function nameFromJwt(jwt: string): string | null {
  const payload = decodeToken<{ context?: { user?: { name?: unknown } } }>(jwt);
  const name = payload?.context?.user?.name;
  return typeof name === 'string' && name.trim() ? name.trim() : null;
}
