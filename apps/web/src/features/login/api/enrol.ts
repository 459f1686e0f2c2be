import { ACCOUNT_API } from '@suite/contract/core';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** POST /auth/login/enrol/setup: the pending token of a sign-in the domain's policy holds → the app's secret. */
export function enrolSetup(body: { email: string; pending_token: string }) {
  return apiRequest({
    method: 'POST',
    path: ACCOUNT_API.loginEnrolSetup,
    body,
    schema: lazySchema('TotpSetupResponseSchema'),
  });
}

/** POST /auth/login/enrol: the app's first code → the session and the recovery codes. */
export function enrol(body: { email: string; pending_token: string; code: string; language?: string }) {
  return apiRequest({ method: 'POST', path: ACCOUNT_API.loginEnrol, body, schema: lazySchema('EnrolResponseSchema') });
}
