import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  ActiveSessionListSchema,
  ErrorBodySchema,
  LogoutResponseSchema,
  MeResponseSchema,
  OkSchema,
  UserIdParamsSchema as SessionIdParamsSchema,
} from '@suite/contract';
import type { AccountsDeps } from '../deps.js';
import { activeSessions, endSession, logout, logoutAll, me } from './service.js';

const tags = ['accounts'];

/** Sign-out, the sessions list and "who am I" for a session. */
const loginRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  // Sign-out and "who am I" serve the welcome step's screen too (its session is refused everywhere else).
  app.post(
    API.logout,
    { config: { session: 'welcome' }, schema: { tags, response: { 200: LogoutResponseSchema } } },
    async (request) => logout(deps, request.user!, request.log),
  );
  app.post(
    API.logoutAll,
    { config: { session: 'full' }, schema: { tags, response: { 200: LogoutResponseSchema } } },
    async (request) => logoutAll(deps, request.user!, request.log),
  );
  app.get(
    API.sessions,
    { config: { session: 'full' }, schema: { tags, response: { 200: ActiveSessionListSchema } } },
    async (request) => activeSessions(deps, request.user!),
  );
  app.delete(
    API.session,
    {
      config: { session: 'full' },
      schema: { tags, params: SessionIdParamsSchema, response: { 200: OkSchema, 404: ErrorBodySchema } },
    },
    async (request) => endSession(deps, request.user!, request.params.id),
  );
  app.get(
    API.me,
    { config: { session: 'welcome' }, schema: { tags, response: { 200: MeResponseSchema } } },
    async (request) => me(deps, request.user!),
  );
};

export default loginRoutes;
