import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API, LoginResponseSchema, UpdatePasswordRequestSchema, UserIdParamsSchema } from '@suite/contract';
import type { AccountsDeps } from '../deps.js';
import { bearer, errorResponses, orFail, signedInLimits } from '../http.js';
import { updatePassword } from './service.js';

/** The signed-in account's settings: a new password. */
const settingsRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  app.put(
    API.updateUser,
    {
      schema: {
        tags: ['accounts'],
        security: bearer,
        params: UserIdParamsSchema,
        body: UpdatePasswordRequestSchema,
        response: { 200: LoginResponseSchema, ...errorResponses },
      },
      // The recovery token is accepted here alone; the current password is checked per user (10 / 10 min).
      preHandler: signedInLimits(app, 'password', 20, 10, undefined, 'password'),
    },
    async (request) =>
      orFail('ERR_COULD_NOT_UPDATE_PASSWORD', request.log, () =>
        updatePassword(deps, request.user!, request.params.id, request.body),
      ),
  );
};

export default settingsRoutes;
