import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API, NewRecoveryCodesRequestSchema, RecoveryCodesResponseSchema } from '@suite/contract';
import type { AccountsDeps } from '../../deps.js';
import { errorResponses, orFail, signedInLimits } from '../../http.js';
import { replaceRecoveryCodes } from '../totp/service.js';

/**
 * Recovery codes: a new set from the Security panel (the old ones stop working). Using one is the
 * authenticator app's code step (strategies/totp), which takes either.
 */
const recoveryCodeRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  app.post(
    API.recoveryCodes,
    {
      config: { session: 'full' },
      schema: {
        tags: ['accounts'],
        body: NewRecoveryCodesRequestSchema,
        response: { 200: RecoveryCodesResponseSchema, ...errorResponses },
      },
      preHandler: signedInLimits(app, 'totp-code', 30, 10),
    },
    async (request) =>
      orFail('ERR_INTERNAL', request.log, () => replaceRecoveryCodes(deps, request.user!, request.body)),
  );
};

export default recoveryCodeRoutes;
