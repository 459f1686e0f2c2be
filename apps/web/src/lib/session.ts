import type { Profile, SessionPayload, SessionResponse } from '@suite/contract/core';
import { decodeToken, isExpired } from './jwt';
import { STORAGE_KEYS, readJson, readString, remove, write } from './storage';
import { carriedAddress } from './carried-address';

export interface ActingProfile {
  _id: string;
  type?: Profile['type'];
  info: { first_name?: string; last_name?: string; email: string };
}

/** Stores a session the way spec §3 lists it: authorization, user, preferences, profiles, acting_profile. */
export function saveSession({ token, profiles }: SessionResponse): boolean {
  const payload = decodeToken<SessionPayload>(token);
  if (!payload?.user || isExpired(payload)) return false;
  write(STORAGE_KEYS.authorization, token);
  write(STORAGE_KEYS.user, payload.user);
  write(STORAGE_KEYS.preferences, payload.user.preferences ?? {});
  write(STORAGE_KEYS.profiles, profiles);
  const first = profiles[0];
  if (first) {
    const acting: ActingProfile = { ...first, info: { ...first.info, email: payload.user.email } };
    write(STORAGE_KEYS.actingProfile, acting);
  }
  return true;
}

/** The stored bearer token when it is still valid. */
export function currentToken(): string | null {
  const token = readString(STORAGE_KEYS.authorization);
  if (!token) return null;
  return isExpired(decodeToken(token)) ? null : token;
}

export function currentUser(): SessionPayload['user'] | null {
  return currentToken() ? readJson<SessionPayload['user']>(STORAGE_KEYS.user) : null;
}

export function actingProfile(): ActingProfile | null {
  return readJson<ActingProfile>(STORAGE_KEYS.actingProfile);
}

export function clearSession(): void {
  remove(
    STORAGE_KEYS.authorization,
    STORAGE_KEYS.user,
    STORAGE_KEYS.preferences,
    STORAGE_KEYS.profiles,
    STORAGE_KEYS.actingProfile,
    // A share link's address is as good as the file: it does not stay for whoever signs in next.
    STORAGE_KEYS.shareLinks,
  );
  // On a shared computer the next person at this tab must not find the previous one's address typed in.
  carriedAddress.set('');
}
