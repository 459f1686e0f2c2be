import { ADMIN_API, type Language } from '@suite/contract/core';
import type { AdminInviteResponse } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** Invites every address of a pasted list; answers who was invited and who was skipped, with why. */
export const invitePeople = (domain: string, text: string, language: Language) =>
  apiRequest<AdminInviteResponse>({
    method: 'POST',
    path: ADMIN_API.adminInvitations,
    params: { domain },
    body: { text, language },
    auth: true,
    schema: lazySchema('AdminInviteResponseSchema'),
  });
