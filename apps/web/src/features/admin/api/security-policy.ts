import { ADMIN_API } from '@suite/contract/core';
import type { SecurityPolicy } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

export const getSecurityPolicy = (domain: string) =>
  apiRequest<SecurityPolicy>({
    path: ADMIN_API.adminSecurityPolicy,
    params: { domain },
    auth: true,
    schema: lazySchema('SecurityPolicySchema'),
  });

export const saveSecurityPolicy = (domain: string, policy: Omit<SecurityPolicy, 'two_step_grace_until'>) =>
  apiRequest<SecurityPolicy>({
    method: 'PUT',
    path: ADMIN_API.adminSecurityPolicy,
    params: { domain },
    body: policy,
    auth: true,
    schema: lazySchema('SecurityPolicySchema'),
  });
