import { ACCOUNT_API, type CompleteRegisterRequest } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** PUT /v2/user/complete-register (bearer, 6000 ms timeout) → a fresh `{token, profiles}`. */
export function completeRegister(body: CompleteRegisterRequest) {
  return apiRequest({
    method: 'PUT',
    path: ACCOUNT_API.completeRegister,
    body,
    auth: true,
    schema: lazySchema('SessionResponseSchema'),
  });
}
