import { ADMIN_API, type Language } from '@suite/contract/core';
import type { PersonResponse } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

const PERSON_ACTIONS = {
  deactivate: ADMIN_API.adminPersonDeactivate,
  reactivate: ADMIN_API.adminPersonReactivate,
  endSessions: ADMIN_API.adminPersonEndSessions,
  resetTwoStep: ADMIN_API.adminPersonResetTwoStep,
  removePasskeys: ADMIN_API.adminPersonRemovePasskeys,
  resendInvitation: ADMIN_API.adminPersonResendInvitation,
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
