import { ACCOUNT_API, type HandoffResponse, type MeResponse } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/**
 * POST /auth/handoff: the single-use hand-off token of a single-sign-on return → `{token, profiles}`, or
 * `{confirm_as}` when this browser did not start that sign-in (then again with `confirm` once the person
 * said yes), or `{proved: true}` for a fresh proof this browser asked for.
 */
export const exchangeHandoff = (handoff: string, confirm = false): Promise<HandoffResponse> =>
  apiRequest({
    method: 'POST',
    path: ACCOUNT_API.handoff,
    body: confirm ? { handoff, confirm } : { handoff },
    schema: lazySchema('HandoffResponseSchema'),
  });

/** GET /v2/user/me with a given token: its profiles (names) and whether the welcome step is done. */
export const meWith = (token: string): Promise<MeResponse> =>
  apiRequest({ method: 'GET', path: ACCOUNT_API.me, token, schema: lazySchema('MeResponseSchema') });

/** Ends a session that was declined (the person stayed in the account they had). */
export const endSession = (token: string) =>
  apiRequest({ method: 'POST', path: ACCOUNT_API.logout, token }).catch(() => undefined);
