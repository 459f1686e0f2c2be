import { ACCOUNT_API } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** POST /auth/login `{login, password}` → `{token, profiles}`, the second step (`{second_step, pending_token}`) or the enrolment a domain requires (`{enrol, pending_token}`). */
export function login(body: { login: string; password: string; captcha_token?: string }) {
  return apiRequest({
    method: 'POST',
    path: ACCOUNT_API.login,
    body,
    schema: lazySchema('PasswordLoginResponseSchema'),
  });
}

/** PUT /v2/user/resend_confirmation: a new sign-up code for an unconfirmed address. */
export function resendConfirmation(body: { email: string; captcha_token?: string }) {
  return apiRequest({
    method: 'PUT',
    path: ACCOUNT_API.resendConfirmation,
    body,
    schema: lazySchema('MessageResponseSchema'),
  });
}
