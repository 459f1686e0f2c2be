import { API, type Language, type TotpSetupResponse } from '@suite/contract/core';
import type { EnrolResponse } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** The app's secret for a sign-in that must set up two-step verification before it gets a session. */
export const enrolSetup = (body: { email: string; pending_token: string }) =>
  apiRequest<TotpSetupResponse>({ method: 'POST', path: API.loginEnrolSetup, body });

/** The app's first code: the session, and the recovery codes to save. */
export const enrol = (body: { email: string; pending_token: string; code: string; language: Language }) =>
  apiRequest<EnrolResponse>({ method: 'POST', path: API.loginEnrol, body, schema: lazySchema('EnrolResponseSchema') });
