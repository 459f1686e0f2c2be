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

/**
 * The copyable sign-up link for the user's domain (`url` null while turned off): GET reads it, POST
 * makes a new one (the earlier one stops working), DELETE turns it off.
 */
export function invitationUrl(method: 'GET' | 'POST' | 'DELETE' = 'GET') {
  return apiRequest({
    method,
    path: ACCOUNT_API.invitationUrl,
    auth: true,
    schema: lazySchema('InvitationUrlResponseSchema'),
  });
}
