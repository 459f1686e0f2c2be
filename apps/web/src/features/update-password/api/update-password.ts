import { ACCOUNT_API, type UpdatePasswordRequest } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** PUT /user/{id} (bearer): the new password; the answer is the one session that stays valid. */
export function updatePassword(id: string, body: UpdatePasswordRequest) {
  return apiRequest({
    method: 'PUT',
    path: ACCOUNT_API.updateUser,
    params: { id },
    body,
    auth: true,
    schema: lazySchema('LoginResponseSchema'),
  });
}
