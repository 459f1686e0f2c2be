import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  ErrorBodySchema,
  InvitationUrlResponseSchema,
  InviteTeammatesRequestSchema,
  InviteTeammatesResponseSchema,
  ValidateInviteQuerySchema,
  ValidateInviteResponseSchema,
} from '@suite/contract';
import type { AppConfig } from '../../config.js';
import { accountsDeps, languageOf } from '../users/routes.js';
import { orFail } from '../users/session.js';
import { invitationUrl, inviteTeammates, validateInvite } from './service.js';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  409: ErrorBodySchema,
  429: ErrorBodySchema,
  500: ErrorBodySchema,
};

/** Teammate invitations, the copyable invitation URL, and the invite screen's status check. */
const invitesRoutes: FastifyPluginAsyncZod<{ config: AppConfig }> = async (app, { config }) => {
  const deps = accountsDeps(app, config);
  const tags = ['invitations'];
  const bearer = [{ bearer: [] }];
  app.post(
    API.inviteTeammates,
    {
      schema: {
        tags,
        security: bearer,
        body: InviteTeammatesRequestSchema,
        response: { 200: InviteTeammatesResponseSchema, ...errors },
      },
      preHandler: [
        app.authenticate,
        app.limit({ name: 'invite-ip', max: 20, window: '1 hour' }),
        app.limit({ name: 'invite-user', max: 10, window: '1 hour', by: 'user' }),
      ],
    },
    async (request) =>
      orFail('ERR_COULD_NOT_INVITE', request.log, () =>
        inviteTeammates(deps, request.user!, request.body.emails, languageOf(request, request.body)),
      ),
  );
  app.get(
    API.invitationUrl,
    {
      schema: { tags, security: bearer, response: { 200: InvitationUrlResponseSchema, ...errors } },
      preHandler: app.authenticate,
    },
    async (request) => invitationUrl(deps, request.user!),
  );
  app.get(
    API.validateInvite,
    {
      schema: {
        tags,
        querystring: ValidateInviteQuerySchema,
        response: { 200: ValidateInviteResponseSchema, ...errors },
      },
      preHandler: app.limit({ name: 'invite-validate-ip', max: 60, window: '10 minutes' }),
    },
    async (request) => validateInvite(deps, request.query.inviteToken),
  );
};

export default invitesRoutes;
