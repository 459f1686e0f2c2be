import { ACCOUNT_API, SECURITY_API, type LogoutResponse } from '@suite/contract/core';
import { ApiError, apiRequest } from './api-client';
import { clearSession } from './session';

/**
 * Ends this device's session and forgets it here. Signing out locally must work even when the server is
 * unreachable, so a failed answer still clears the session. Answers the organization's provider logout
 * address for a single sign-on session, if any.
 */
export async function signOut(): Promise<string | undefined> {
  const answer = await apiRequest<LogoutResponse>({ method: 'POST', path: ACCOUNT_API.logout, auth: true }).catch(
    () => undefined,
  );
  clearSession();
  return answer?.logout_url ?? undefined;
}

/**
 * Ends every session of the account, this one included. Unlike `signOut`, a failure is not hidden: the
 * other devices are still signed in, and the person must know. A refused session (401) has ended already.
 */
export async function signOutEverywhere(): Promise<string | undefined> {
  try {
    const answer = await apiRequest<LogoutResponse>({ method: 'POST', path: SECURITY_API.logoutAll, auth: true });
    clearSession();
    return answer.logout_url ?? undefined;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
    clearSession();
    return undefined;
  }
}
