import { API } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** POST /invite/teammates (bearer): invites same-domain addresses by mail. */
export function inviteTeammates(emails: string[]) {
  return apiRequest({
    method: 'POST',
    path: API.inviteTeammates,
    body: { emails },
    auth: true,
    schema: lazySchema('InviteTeammatesResponseSchema'),
  });
}

/** GET /invite/url (bearer): the copyable sign-up link for the user's domain. */
export function invitationUrl() {
  return apiRequest({
    method: 'GET',
    path: API.invitationUrl,
    auth: true,
    schema: lazySchema('InvitationUrlResponseSchema'),
  });
}
