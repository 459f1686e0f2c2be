import { API } from '@suite/contract/core';
import { apiRequest } from '../../../lib/api-client';

/** Spends the "this wasn't me" token: the change is undone and every session of the account ends. */
export const revertFactorChange = (token: string) =>
  apiRequest<{ ok: true }>({ method: 'POST', path: API.factorRevert, body: { token } });
