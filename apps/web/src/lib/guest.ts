import { ACCEPTED_TERMS_VERSION, ACCOUNT_API, type GuestRequest, type GuestResponse } from '@suite/contract/core';
import { apiRequest, lazySchema } from './api-client';
import { STORAGE_KEYS, write } from './storage';

/** POST /guest: `{name, accepted_terms}` → the guest record; its `_id` is stored as guestId. */
function createGuest(body: GuestRequest): Promise<GuestResponse> {
  return apiRequest({ method: 'POST', path: ACCOUNT_API.guest, body, schema: lazySchema('GuestResponseSchema') });
}

/**
 * A guest with this name who accepted the current terms (spec §4), remembered in this browser (guestId,
 * guestName): what /guest and the pre-join both do once the name and the terms are given.
 */
export async function registerGuest(name: string): Promise<GuestResponse> {
  const guest = await createGuest({ name, accepted_terms: { version: ACCEPTED_TERMS_VERSION } });
  if (!guest?._id) throw new Error('no result');
  write(STORAGE_KEYS.guestId, guest._id);
  write(STORAGE_KEYS.guestName, guest.name);
  return guest;
}
