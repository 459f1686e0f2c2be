import { ACCOUNT_API } from '@suite/contract/core';
import { apiRequest, lazySchema } from './api-client';

/**
 * The copyable sign-up link for the user's domain (`url` null while turned off): GET reads it, POST
 * makes a new one (the earlier one stops working), DELETE turns it off. Shared by the teammates step and
 * the home's "Invite your teammates".
 */
export function invitationUrl(method: 'GET' | 'POST' | 'DELETE' = 'GET') {
  return apiRequest({
    method,
    path: ACCOUNT_API.invitationUrl,
    auth: true,
    schema: lazySchema('InvitationUrlResponseSchema'),
  });
}
