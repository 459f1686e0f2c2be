import {
  SECURITY_API,
  type Passkey,
  type RecoveryCodesResponse,
  type SecurityState,
  type TotpSetupResponse,
} from '@suite/contract/core';
import { apiRequest } from '../../../lib/api-client';

/** The Security panel's state: passkeys, two-step verification, recovery codes left. */
export const securityState = () => apiRequest<SecurityState>({ path: SECURITY_API.security, auth: true });

export const renamePasskey = (id: string, name: string) =>
  apiRequest<Passkey>({ method: 'PATCH', path: SECURITY_API.passkey, params: { id }, body: { name }, auth: true });

export const removePasskey = (id: string) =>
  apiRequest<{ ok: true }>({ method: 'DELETE', path: SECURITY_API.passkey, params: { id }, auth: true });

/** A new app secret (QR code and text); two-step verification is on only once a code confirms it. */
export const startTotp = () =>
  apiRequest<TotpSetupResponse>({ method: 'POST', path: SECURITY_API.totpSetup, auth: true });

export const confirmTotp = (code: string, language: string) =>
  apiRequest<RecoveryCodesResponse>({
    method: 'POST',
    path: SECURITY_API.totpEnable,
    body: { code, language },
    auth: true,
  });

export const disableTotp = (password: string, code: string, language: string) =>
  apiRequest<{ ok: true }>({
    method: 'POST',
    path: SECURITY_API.totpDisable,
    body: { password, code, language },
    auth: true,
  });

/** A new set of recovery codes (the old ones stop working), confirmed by a code from the app. */
export const newRecoveryCodes = (code: string, language: string) =>
  apiRequest<RecoveryCodesResponse>({
    method: 'POST',
    path: SECURITY_API.recoveryCodes,
    body: { code, language },
    auth: true,
  });
