import { ADMIN_API } from '@suite/contract/core';
import type { AdminClaimResponse, AdminMeResponse } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** The TXT record that proves the signed-in person's own domain; 403 ERR_CLAIM_NOT_ALLOWED for a personal address. */
export const getClaim = () =>
  apiRequest<AdminClaimResponse>({
    path: ADMIN_API.adminClaim,
    auth: true,
    schema: lazySchema('AdminClaimResponseSchema'),
  });

/** Looks the record up now: the caller administers the domain on success (missing / mismatch are errors). */
export const verifyClaim = () =>
  apiRequest<AdminMeResponse>({
    method: 'POST',
    path: ADMIN_API.adminClaimVerify,
    body: {},
    auth: true,
    schema: lazySchema('AdminMeResponseSchema'),
  });
