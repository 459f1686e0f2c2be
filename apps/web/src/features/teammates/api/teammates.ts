import { ACCOUNT_API } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** POST /invite/teammates (bearer): invites same-domain addresses by mail. */
export function inviteTeammates(emails: string[]) {
  return apiRequest({
    method: 'POST',
    path: ACCOUNT_API.inviteTeammates,
    body: { emails },
    auth: true,
    schema: lazySchema('InviteTeammatesResponseSchema'),
  });
}
