import { API, type GuestRequest, type GuestResponse } from '@suite/contract/core';
import { apiRequest, lazySchema } from './api-client';

/** POST /guest: `{name, accepted_terms}` → the guest record; its `_id` is stored as guestId. */
export function createGuest(body: GuestRequest): Promise<GuestResponse> {
  return apiRequest({ method: 'POST', path: API.guest, body, schema: lazySchema('GuestResponseSchema') });
}
