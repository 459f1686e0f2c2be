import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  ActiveSessionListSchema,
  ErrorBodySchema,
  LoginRequestSchema,
  MeResponseSchema,
  OkSchema,
  SessionResponseSchema,
  UserIdParamsSchema as SessionIdParamsSchema,
} from '@suite/contract';
import type { AccountsDeps } from '../deps.js';
import { addressLimits, bearer, captchaErrorResponses, orFail } from '../http.js';
import { activeSessions, endSession, login, logout, logoutAll, me } from './service.js';

const tags = ['accounts'];
const signedIn = { 401: ErrorBodySchema };

/** Password login, sign-out and "who am I" for a session. */
const loginRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  app.post(
    API.login,
    {
      schema: { tags, body: LoginRequestSchema, response: { 200: SessionResponseSchema, ...captchaErrorResponses } },
      preHandler: [...addressLimits(app, 'login', 30, 10, 'failures', 'login'), app.captcha('login')],
    },
    async (request) => orFail('ERR_COULD_NOT_AUTHENTICATE', request.log, () => login(deps, request.body)),
  );
  app.post(
    API.logout,
    {
      schema: { tags, security: bearer, response: { 200: OkSchema, ...signedIn } },
      preHandler: app.authenticate,
    },
    async (request) => logout(deps, request.user!),
  );
  app.post(
    API.logoutAll,
    {
      schema: { tags, security: bearer, response: { 200: OkSchema, ...signedIn } },
      preHandler: app.authenticate,
    },
    async (request) => logoutAll(deps, request.user!),
  );
  app.get(
    API.sessions,
    {
      schema: { tags, security: bearer, response: { 200: ActiveSessionListSchema, ...signedIn } },
      preHandler: app.authenticate,
    },
    async (request) => activeSessions(deps, request.user!),
  );
  app.delete(
    API.session,
    {
      schema: {
        tags,
        security: bearer,
        params: SessionIdParamsSchema,
        response: { 200: OkSchema, ...signedIn, 404: ErrorBodySchema },
      },
      preHandler: app.authenticate,
    },
    async (request) => endSession(deps, request.user!, request.params.id),
  );
  app.get(
    API.me,
    {
      schema: { tags, security: bearer, response: { 200: MeResponseSchema, ...signedIn } },
      preHandler: app.authenticate,
    },
    async (request) => me(deps, request.user!),
  );
};

export default loginRoutes;
