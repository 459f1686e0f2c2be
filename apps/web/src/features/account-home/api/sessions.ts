import { SECURITY_API, type ActiveSession, type LogoutResponse } from '@suite/contract/core';
import { apiRequest } from '../../../lib/api-client';

/** The signed-in user's sessions (one per device), most recently seen first. */
export const listSessions = () =>
  apiRequest<{ data: ActiveSession[] }>({ path: SECURITY_API.sessions, auth: true }).then((r) => r.data);

/** Ends another session of the signed-in user (that device must sign in again). */
export const endSession = (id: string) =>
  apiRequest<{ ok: true }>({ method: 'DELETE', path: SECURITY_API.session, params: { id }, auth: true });

/** Ends every session of the signed-in user, this one included (and answers this device's provider logout). */
export const logoutAll = () => apiRequest<LogoutResponse>({ method: 'POST', path: SECURITY_API.logoutAll, auth: true });
