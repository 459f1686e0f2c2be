import { API, type Language } from '@suite/contract/core';
import type { PersonResponse } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

const PERSON_ACTIONS = {
  deactivate: API.adminPersonDeactivate,
  reactivate: API.adminPersonReactivate,
  endSessions: API.adminPersonEndSessions,
  resetTwoStep: API.adminPersonResetTwoStep,
  removePasskeys: API.adminPersonRemovePasskeys,
  resendInvitation: API.adminPersonResendInvitation,
} as const;
export type PersonAction = keyof typeof PERSON_ACTIONS;

/** An action on one person; answers the person afterwards. `language`: of the mail the person may get. */
export const runPersonAction = (id: string, action: PersonAction, language: Language) =>
  apiRequest<PersonResponse>({
    method: 'POST',
    path: PERSON_ACTIONS[action],
    params: { id },
    body: { language },
    auth: true,
    schema: lazySchema('PersonResponseSchema'),
  });
