import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API, ConfirmCodeRequestSchema, SessionResponseSchema } from '@suite/contract';
import type { AccountsDeps } from '../../deps.js';
import { addressLimits, askerOf, captchaErrorResponses, languageOf, orFail } from '../../http.js';
import { confirm } from '../../signup/service.js';

/**
 * The e-mailed code that proves the mailbox and signs a new account in (to its welcome step):
 * checked per address and client like the other code checks. Sign-up sends it; the policy decides
 * whether it may sign in at all.
 */
const emailCodeRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  app.put(
    API.confirm,
    {
      schema: {
        tags: ['accounts'],
        body: ConfirmCodeRequestSchema,
        response: { 200: SessionResponseSchema, ...captchaErrorResponses },
      },
      preHandler: addressLimits(app, 'confirm', 30, 10, 'failures', 'email', 'code'),
    },
    async (request) =>
      orFail('ERR_OTHER', request.log, () =>
        confirm(deps, request.body, languageOf(request, request.body), askerOf(request)),
      ),
  );
};

export default emailCodeRoutes;
