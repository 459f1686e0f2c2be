import { SECURITY_API } from '@suite/contract/core';
import { apiRequest } from './api-client';

/** A fresh proof for the session in hand: the password, or a code from the app. */
export const reauthenticate = (body: { method: 'password'; password: string } | { method: 'totp'; code: string }) =>
  apiRequest<{ ok: true }>({ method: 'POST', path: SECURITY_API.reauth, body, auth: true });

/** A single-sign-on account's fresh proof: the address of a new sign-in at its provider (it comes back here). */
export const ssoReauthUrl = () =>
  apiRequest<{ url: string }>({ method: 'POST', path: SECURITY_API.ssoReauth, auth: true });
