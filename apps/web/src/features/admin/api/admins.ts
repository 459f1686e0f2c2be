import { ADMIN_API } from '@suite/contract/core';
import type { AdminListResponse } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

const schema = lazySchema('AdminListResponseSchema');

/** The domain's administrators. */
export const getAdmins = (domain: string) =>
  apiRequest<AdminListResponse>({ path: ADMIN_API.adminAdmins, params: { domain }, auth: true, schema });

/** Makes a registered person of the domain an administrator; answers the list afterwards. */
export const addAdmin = (domain: string, email: string) =>
  apiRequest<AdminListResponse>({
    method: 'POST',
    path: ADMIN_API.adminAdmins,
    params: { domain },
    body: { email },
    auth: true,
    schema,
  });

/** Ends someone's (or one's own) administration; 409 ERR_ADMIN_LAST for the last one leaving. */
export const removeAdmin = (domain: string, userId: string) =>
  apiRequest<AdminListResponse>({
    method: 'DELETE',
    path: ADMIN_API.adminAdmin,
    params: { domain, userId },
    auth: true,
    schema,
  });
