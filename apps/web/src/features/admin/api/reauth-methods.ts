import { SECURITY_API, type SecurityState } from '@suite/contract/core';
import { apiRequest } from '../../../lib/api-client';

/** How this session can give a fresh proof (password, app code, passkey, single sign-on): the Security panel's state. */
export const reauthMethods = () =>
  apiRequest<SecurityState>({ path: SECURITY_API.security, auth: true }).then((state) => state.reauth);
