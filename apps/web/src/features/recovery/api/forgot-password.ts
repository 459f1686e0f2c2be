import { ACCOUNT_API } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** POST /v2/user/forgot-password: 200 leads to the recovery code screen. */
export function forgotPassword(body: { email: string; captcha_token?: string }) {
  return apiRequest({
    method: 'POST',
    path: ACCOUNT_API.forgotPassword,
    body,
    schema: lazySchema('MessageResponseSchema'),
  });
}
