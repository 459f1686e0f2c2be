import { SECURITY_API, type FactorRevertResponse } from '@suite/contract/core';
import { apiRequest } from '../../../lib/api-client';

/**
 * Spends the "this wasn't me" token: the changes are undone and every session of the account ends;
 * says whether the password was cleared.
 */
export const revertFactorChange = (token: string) =>
  apiRequest<FactorRevertResponse>({ method: 'POST', path: SECURITY_API.factorRevert, body: { token } });
