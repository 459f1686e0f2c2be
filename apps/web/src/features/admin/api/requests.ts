import { ADMIN_API, type Language } from '@suite/contract/core';
import type { AccessRequestResponse, AccessRequestsPage } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** The domain's access requests still waiting for a decision, oldest first as the server pages them. */
export const listPendingRequests = (domain: string, cursor?: string) =>
  apiRequest<AccessRequestsPage>({
    path: ADMIN_API.adminRequests,
    params: { domain },
    query: { status: 'pending', cursor },
    auth: true,
    schema: lazySchema('AccessRequestsPageSchema'),
  });

export const decideRequest = (id: string, decision: 'approve' | 'refuse', language: Language) =>
  apiRequest<AccessRequestResponse>({
    method: 'POST',
    path: decision === 'approve' ? ADMIN_API.adminRequestApprove : ADMIN_API.adminRequestRefuse,
    params: { id },
    body: { language },
    auth: true,
    schema: lazySchema('AccessRequestResponseSchema'),
  });
