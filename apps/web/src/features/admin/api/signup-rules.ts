import { ADMIN_API } from '@suite/contract/core';
import type { SignupMode, SignupRules } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

export const getSignupRules = (domain: string) =>
  apiRequest<SignupRules>({
    path: ADMIN_API.adminSignupRules,
    params: { domain },
    auth: true,
    schema: lazySchema('SignupRulesSchema'),
  });

export const saveSignupRules = (domain: string, rules: { mode?: SignupMode; sso_only?: boolean }) =>
  apiRequest<SignupRules>({
    method: 'PUT',
    path: ADMIN_API.adminSignupRules,
    params: { domain },
    body: rules,
    auth: true,
    schema: lazySchema('SignupRulesSchema'),
  });
