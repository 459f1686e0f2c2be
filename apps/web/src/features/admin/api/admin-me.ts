import { ADMIN_API } from '@suite/contract/core';
import type { AdminMeResponse } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** The domains the signed-in person administers; 404 ERR_NOT_FOUND when none (the console does not exist for them). */
export const getAdminMe = () =>
  apiRequest<AdminMeResponse>({ path: ADMIN_API.adminMe, auth: true, schema: lazySchema('AdminMeResponseSchema') });
