import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API, ErrorBodySchema, LoginRequestSchema, OkSchema, SessionResponseSchema } from '@suite/contract';
import type { AppConfig } from '../../config.js';
import { accountsDeps } from '../users/routes.js';
import { orFail } from '../users/session.js';
import { login, logout } from './service.js';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  429: ErrorBodySchema,
  500: ErrorBodySchema,
  503: ErrorBodySchema,
};

/** Password login and sign-out. */
const authRoutes: FastifyPluginAsyncZod<{ config: AppConfig }> = async (app, { config }) => {
  const deps = accountsDeps(app, config);
  app.post(
    API.login,
    {
      schema: { tags: ['accounts'], body: LoginRequestSchema, response: { 200: SessionResponseSchema, ...errors } },
      preHandler: [
        app.limit({ name: 'login-ip', max: 30, window: '10 minutes' }),
        app.limit({ name: 'login-addr', max: 10, window: '10 minutes', by: { bodyField: 'login' } }),
        app.captcha('login'),
      ],
    },
    async (request) => orFail('ERR_COULD_NOT_AUTHENTICATE', request.log, () => login(deps, request.body)),
  );
  app.post(
    API.logout,
    {
      schema: { tags: ['accounts'], security: [{ bearer: [] }], response: { 200: OkSchema, 401: ErrorBodySchema } },
      preHandler: app.authenticate,
    },
    async (request) => logout(deps, request.user!),
  );
};

export default authRoutes;
