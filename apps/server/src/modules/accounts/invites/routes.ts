import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  API,
  InvitationUrlResponseSchema,
  InviteTeammatesRequestSchema,
  InviteTeammatesResponseSchema,
  ValidateInviteQuerySchema,
  ValidateInviteResponseSchema,
} from '@suite/contract';
import type { AccountsDeps } from '../deps.js';
import { errorResponses, languageOf, orFail, signedInLimits } from '../http.js';
import {
  invitationUrl,
  inviteTeammates,
  rotateInvitationUrl,
  turnOffInvitationUrl,
  validateInvite,
} from './service.js';

const tags = ['invitations'];

/** Teammate invitations, the copyable invitation URL, and the invite screen's status check. */
const invitesRoutes: FastifyPluginAsyncZod<{ deps: AccountsDeps }> = async (app, { deps }) => {
  app.post(
    API.inviteTeammates,
    {
      config: { session: 'full' },
      schema: {
        tags,
        body: InviteTeammatesRequestSchema,
        response: { 200: InviteTeammatesResponseSchema, ...errorResponses },
      },
      preHandler: signedInLimits(app, 'invite', 20, 10, '1 hour'),
    },
    async (request) =>
      orFail('ERR_COULD_NOT_INVITE', request.log, () =>
        inviteTeammates(deps, request.user!, request.body.emails, languageOf(request, request.body)),
      ),
  );
  const teamLinkSchema = { tags, response: { 200: InvitationUrlResponseSchema, ...errorResponses } };
  app.get(API.invitationUrl, { config: { session: 'full' }, schema: teamLinkSchema }, async (request) =>
    invitationUrl(deps, request.user!),
  );
  // The person who shared the link replaces it or turns it off: every instance honours it at once.
  app.post(
    API.invitationUrl,
    { config: { session: 'full' }, schema: teamLinkSchema, preHandler: signedInLimits(app, 'team-link', 60, 20) },
    async (request) => rotateInvitationUrl(deps, request.user!),
  );
  app.delete(
    API.invitationUrl,
    { config: { session: 'full' }, schema: teamLinkSchema, preHandler: signedInLimits(app, 'team-link', 60, 20) },
    async (request) => turnOffInvitationUrl(deps, request.user!),
  );
  app.get(
    API.validateInvite,
    {
      schema: {
        tags,
        querystring: ValidateInviteQuerySchema,
        response: { 200: ValidateInviteResponseSchema, ...errorResponses },
      },
      preHandler: app.limit({ name: 'invite-validate-ip', max: 60, window: '10 minutes' }),
    },
    async (request) => validateInvite(deps, request.query.inviteToken),
  );
};

export default invitesRoutes;
