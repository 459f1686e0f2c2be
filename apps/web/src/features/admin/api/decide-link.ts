import { SECURITY_API } from '@suite/contract/core';
import type { AccessRequestResponse } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** What the mail's link is about (the link stays usable). */
export const requestByLink = (token: string) =>
  apiRequest<AccessRequestResponse>({
    method: 'POST',
    path: SECURITY_API.accessRequestLink,
    body: { token },
    schema: lazySchema('AccessRequestResponseSchema'),
  });

/** Approves or refuses through the mail's link (the link is used up). */
export const decideByLink = (token: string, decision: 'approve' | 'refuse') =>
  apiRequest<AccessRequestResponse>({
    method: 'POST',
    path: SECURITY_API.accessRequestDecide,
    body: { token, decision },
    schema: lazySchema('AccessRequestResponseSchema'),
  });
