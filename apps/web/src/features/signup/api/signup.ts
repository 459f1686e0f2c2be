import { ACCOUNT_API } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

export interface SignupBody {
  email: string;
  invite_token?: string;
  captcha_token?: string;
}

/** POST /v2/user: 201 → a code was mailed; with an accepted personal invite the answer carries a session. */
export function signup(body: SignupBody) {
  return apiRequest({ method: 'POST', path: ACCOUNT_API.signup, body, schema: lazySchema('SignupResponseSchema') });
}
