import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idSchema,
  API,
  MEETING_API,
  PresenceRequestSchema,
  CreateVideoconferenceRequestSchema,
  ErrorBodySchema,
  GuestMeetingTokenRequestSchema,
  GuestMeetingTokenResponseSchema,
  MeetingTokenRequestSchema,
  MeetingTokenResponseSchema,
  SessionPingRequestSchema,
  SessionPingResponseSchema,
  VideoconferenceListSchema,
  VideoconferencePublicSchema,
  VideoconferenceSchema,
} from '@suite/contract';
import type { AppConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { bearerSecurity, signedIn } from '../../plugins/auth.js';
import { createGuestService } from '../guests/index.js';
import { createMeetingTokenSigner, createMeetingTokenVerifier } from './jitsi-token.js';
import { createMeetingService, type PresenceIdentity } from './service.js';

const IdParams = z.object({ id: idSchema(256) });
const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  404: ErrorBodySchema,
  429: ErrorBodySchema,
  503: ErrorBodySchema,
};

/** Video conferences of a host, and the Jitsi meeting tokens for hosts, signed-in users and guests. */
const meetingRoutes: FastifyPluginAsyncZod<{ config: AppConfig }> = async (app, { config }) => {
  const meetings = createMeetingService({
    db: app.db,
    config,
    signer: createMeetingTokenSigner(config.meet),
    verifier: createMeetingTokenVerifier(config.meet),
    guests: createGuestService(app.db),
    presence: app.presence,
  });
  const tags = ['meetings'];

  app.post(
    API.videoconferences,
    signedIn(
      app,
      {
        tags,
        body: CreateVideoconferenceRequestSchema,
        response: { 201: VideoconferenceSchema, ...errors },
      },
      [app.limit({ name: 'vc-create', max: 60, window: '1 hour' })],
    ),
    async (request, reply) => reply.status(201).send(await meetings.create(request.user!.id, request.body.title)),
  );

  app.get(
    API.videoconferences,
    signedIn(app, { tags, response: { 200: VideoconferenceListSchema, ...errors } }),
    async (request) => ({ data: await meetings.list(request.user!.id) }),
  );

  app.get(
    API.videoconference,
    {
      preHandler: app.limit({ name: 'vc-view', max: 120, window: '1 minute' }),
      schema: { tags, params: IdParams, response: { 200: VideoconferencePublicSchema, ...errors } },
    },
    async (request) => meetings.publicView(request.params.id),
  );

  app.delete(
    API.videoconference,
    signedIn(app, { tags, params: IdParams, response: { 200: VideoconferenceSchema, ...errors } }),
    async (request) => meetings.end(request.user!.id, request.params.id),
  );

  app.delete(
    API.videoconferenceSession,
    signedIn(app, { tags, params: IdParams, response: { 200: VideoconferenceSchema, ...errors } }),
    async (request) => meetings.endSession(request.user!.id, request.params.id),
  );

  app.post(
    API.meetingToken,
    signedIn(
      app,
      {
        tags,
        body: MeetingTokenRequestSchema,
        response: { 200: MeetingTokenResponseSchema, ...errors },
      },
      [app.limit({ name: 'meet-token', max: 120, window: '1 minute' })],
    ),
    async (request) => meetings.userToken(request.user!, request.body.room_name, request.body.display_name),
  );

  app.post(
    API.guestMeetingToken,
    {
      // A waiting guest asks every 5 s (12 a minute). Counted per guest, so that a whole office behind one
      // NAT address can wait together; the per-address bound only stops floods.
      preHandler: [
        app.limit({ name: 'meet-guest-token-id', max: 60, window: '1 minute', by: { bodyField: 'guest_id' } }),
        app.limit({ name: 'meet-guest-token', max: 1500, window: '1 minute' }),
      ],
      schema: {
        tags,
        body: GuestMeetingTokenRequestSchema,
        response: { 200: GuestMeetingTokenResponseSchema, ...errors },
      },
    },
    async (request) => ({
      data: await meetings.guestToken(request.body.guest_id, request.body.room_name, request.body.display_name),
    }),
  );

  app.post(
    API.videoconferenceSessionPing,
    {
      // One ping every few minutes per person in the room; bearer for users, guest_id for guests.
      preHandler: [app.optionalAuthenticate, app.limit({ name: 'meet-ping', max: 600, window: '1 minute' })],
      schema: {
        tags,
        security: [...bearerSecurity, {}],
        params: IdParams,
        body: SessionPingRequestSchema,
        response: { 200: SessionPingResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { guest_id } = request.body;
      if (request.user) return meetings.ping({ kind: 'user', user: request.user }, request.params.id);
      if (guest_id) return meetings.ping({ kind: 'guest', guestId: guest_id }, request.params.id);
      throw new AppError('ERR_INVALID_ACCESS_TOKEN');
    },
  );

  // Presence: the room page's heartbeat (PUT) and its goodbye (DELETE, also sent as the page goes away).
  // Bearer for users, the meeting token of this room for guests. One beat per person every 15 s, so the
  // per-address bound leaves room for a large office behind one NAT address.
  const presenceRoute = {
    preHandler: [app.optionalAuthenticate, app.limit({ name: 'meet-presence', max: 3000, window: '1 minute' })],
    schema: {
      tags,
      security: [...bearerSecurity, {}],
      params: IdParams,
      body: PresenceRequestSchema.optional(),
      response: { 204: z.null(), ...errors },
    },
  };
  const presenceIdentity = (request: FastifyRequest, token: string | undefined): PresenceIdentity => {
    if (request.user) return { kind: 'user', user: request.user };
    if (token) return { kind: 'guest', token };
    throw new AppError('ERR_INVALID_ACCESS_TOKEN');
  };
  app.put(MEETING_API.videoconferencePresence, presenceRoute, async (request, reply) => {
    await meetings.heartbeat(presenceIdentity(request, request.body?.token), request.params.id);
    return reply.status(204).send(null);
  });
  app.delete(MEETING_API.videoconferencePresence, presenceRoute, async (request, reply) => {
    await meetings.leave(presenceIdentity(request, request.body?.token), request.params.id);
    return reply.status(204).send(null);
  });
};

export default meetingRoutes;
