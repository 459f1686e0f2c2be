import { API } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** Accepting an invite is a sign-up with its token (spec §4): POST /v2/user `{email, invite_token}`. */
export function acceptInvite(email: string, inviteToken: string) {
  return apiRequest({
    method: 'POST',
    path: API.signup,
    body: { email, invite_token: inviteToken },
    schema: lazySchema('SignupResponseSchema'),
  });
}
