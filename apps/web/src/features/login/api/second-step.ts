import { ACCOUNT_API } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** POST /auth/login/second-step: the pending token and one code (app or recovery) → a session. */
export function answerSecondStep(body: { email: string; pending_token: string; code: string; captcha_token?: string }) {
  return apiRequest({
    method: 'POST',
    path: ACCOUNT_API.secondStep,
    body,
    schema: lazySchema('SessionResponseSchema'),
  });
}
