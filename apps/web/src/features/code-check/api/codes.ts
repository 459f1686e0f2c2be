import { ACCOUNT_API } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** The same code screen serves sign-up (check-token) and recovery (check-token-recovery). */
export type CodeMode = 'signup' | 'recovery';

/**
 * PUT /v2/user/confirm or /v2/user/forgot-password/confirm → `{token, profiles}`. `captcha_token` only
 * when the server asked for one (ERR_CAPTCHA_REQUIRED: many failed checks on this address).
 */
export function confirmCode(mode: CodeMode, body: { token: string; email: string; captcha_token?: string }) {
  const path = mode === 'signup' ? ACCOUNT_API.confirm : ACCOUNT_API.forgotPasswordConfirm;
  return apiRequest({ method: 'PUT', path, body, schema: lazySchema('SessionResponseSchema') });
}

/** A new code (the old one stops working): resend_confirmation for sign-up, forgot-password again for recovery. */
export function resendCode(mode: CodeMode, email: string, captcha?: string) {
  const body = { email, ...(captcha ? { captcha_token: captcha } : {}) };
  return mode === 'signup'
    ? apiRequest({
        method: 'PUT',
        path: ACCOUNT_API.resendConfirmation,
        body,
        schema: lazySchema('MessageResponseSchema'),
      })
    : apiRequest({
        method: 'POST',
        path: ACCOUNT_API.forgotPassword,
        body,
        schema: lazySchema('MessageResponseSchema'),
      });
}
