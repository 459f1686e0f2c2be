import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idSchema,
  API,
  API_PREFIX,
  CohostListSchema,
  CohostRequestSchema,
  InviteRequestSchema,
  InviteeListSchema,
  LOBBY_API,
  LOBBY_REQUEST_TTL_S,
  LobbyDecisionResponseSchema,
  LobbyRequestListSchema,
  LobbyStatusSchema,
  LobbyWaitingResponseSchema,
  MeetingAccessRequestSchema,
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
import { createGuestService } from '../guests/index.js';
import { createMeetingTokenSigner, createMeetingTokenVerifier } from './jitsi-token.js';
import { openLobbyBus } from '../../plugins/lobby-bus.js';
import { createMeetingService, type PresenceIdentity, type TokenOrWait } from './service.js';

const IdParams = z.object({ id: idSchema(256) });
const RequestParams = IdParams.extend({ requestId: z.string().min(1).max(64) });
const CohostParams = IdParams.extend({ userId: z.string().min(1).max(64) });
const InviteeParams = IdParams.extend({ inviteeId: z.string().min(1).max(64) });
const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  429: ErrorBodySchema,
  503: ErrorBodySchema,
};

/** The lobby cookie: binds a request to join to this browser (HttpOnly: no script reads it). */
const LOBBY_COOKIE = 'suite_lobby';
const LOBBY_COOKIE_PATH = `${API_PREFIX}/v2/videoconference`;
/** A browser keeps its lobby identity for a day: every meeting it asks to join that day knows it. */
const LOBBY_COOKIE_MAX_AGE_S = 24 * 3600;
/** A stream's comment line every so often keeps proxies from closing it, and re-reads presence. */
const STREAM_TICK_MS = 15_000;
/** A waiting page's open stream renews its request this often (well inside LOBBY_REQUEST_TTL_S). */
const TOUCH_EVERY_TICKS = Math.max(1, Math.floor((LOBBY_REQUEST_TTL_S * 1000) / STREAM_TICK_MS / 10));

/** Video conferences of a host, and the Jitsi meeting tokens for hosts, signed-in users and guests. */
const meetingRoutes: FastifyPluginAsyncZod<{ config: AppConfig }> = async (app, { config }) => {
  const bus = await openLobbyBus(config.redisUrl, app.log);
  app.addHook('onClose', async () => bus.close());
  if (config.meet.domain && !config.meet.jitsi && !config.meet.jaas) {
    app.log.warn(
      'Meetings are configured without a token secret (JITSI_APP_SECRET or JAAS_*): Jitsi cannot refuse people without our token, so the lobby guards nothing',
    );
  }
  const meetings = createMeetingService({
    db: app.db,
    config,
    signer: createMeetingTokenSigner(config.meet),
    verifier: createMeetingTokenVerifier(config.meet),
    guests: createGuestService(app.db),
    presence: app.presence,
    bus,
    counters: app.counters,
    mailer: app.mailer,
  });
  const tags = ['meetings'];
  const lobbyCookie = {
    path: LOBBY_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https:'),
    maxAge: LOBBY_COOKIE_MAX_AGE_S,
  } as const;
  const browserOf = (request: FastifyRequest, invite?: string) => ({
    cookie: request.cookies[LOBBY_COOKIE],
    ip: request.ip,
    invite,
  });

  /** 200 with the token, or 202 with where the request to join stands (and the lobby cookie when new). */
  const tokenOrWait = (reply: FastifyReply, result: TokenOrWait, wrap: boolean) => {
    if ('token' in result) return reply.status(200).send(wrap ? { data: result.token } : result.token);
    if (result.newCookie) reply.setCookie(LOBBY_COOKIE, result.newCookie, lobbyCookie);
    return reply.status(202).send({ lobby: result.lobby });
  };

  // Open Server-Sent Events streams, ended when the server closes (they would hold it open).
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  /**
   * A Server-Sent Events stream of `read()`'s answer: sent at once, then again whenever the meeting's
   * lobby changes on any instance (and on every tick), only when it differs from the last one sent.
   * A failed read (the database away) is skipped: the next change or tick sends it.
   */
  function stream(
    request: FastifyRequest,
    reply: FastifyReply,
    meetingId: string,
    event: string,
    read: () => Promise<unknown>,
    onTick?: (tick: number) => Promise<void>,
  ) {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      // A stream holds its connection for minutes: when it ends, the connection goes too (a kept-alive
      // socket after a hijacked answer would hold the server's close).
      connection: 'close',
    });
    let last = '';
    let closed = false;
    let running: Promise<void> = Promise.resolve();
    const push = () => {
      running = running.then(async () => {
        if (closed) return;
        const body = JSON.stringify(await read().catch(() => null));
        if (closed || body === 'null' || body === last) return;
        last = body;
        raw.write(`event: ${event}\ndata: ${body}\n\n`);
      });
    };
    const unsubscribe = bus.subscribe(meetingId, push);
    let tick = 0;
    const timer = setInterval(() => {
      tick += 1;
      raw.write(': tick\n\n');
      void (onTick?.(tick) ?? Promise.resolve()).catch(() => undefined).then(push);
    }, STREAM_TICK_MS);
    const end = () => {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      unsubscribe();
      streams.delete(end);
      raw.end();
    };
    streams.add(end);
    request.raw.on('close', end);
    raw.on('close', end);
    push();
  }

  app.post(
    API.videoconferences,
    {
      config: { session: 'full' },
      schema: {
        tags,
        body: CreateVideoconferenceRequestSchema,
        response: { 201: VideoconferenceSchema, ...errors },
      },
      preHandler: [app.limit({ name: 'vc-create', max: 60, window: '1 hour' })],
    },
    async (request, reply) =>
      reply.status(201).send(await meetings.create(request.user!.id, request.body.title, request.body.access)),
  );

  app.get(
    API.videoconferences,
    { config: { session: 'full' }, schema: { tags, response: { 200: VideoconferenceListSchema, ...errors } } },
    async (request) => ({ data: await meetings.list(request.user!.id) }),
  );

  app.get(
    API.videoconference,
    {
      config: { session: 'optional' },
      preHandler: app.limit({ name: 'vc-view', max: 120, window: '1 minute' }),
      schema: {
        tags,
        params: IdParams,
        response: { 200: VideoconferencePublicSchema, ...errors },
      },
    },
    async (request) => meetings.publicView(request.params.id, request.user),
  );

  app.delete(
    API.videoconference,
    {
      config: { session: 'full' },
      schema: { tags, params: IdParams, response: { 200: VideoconferenceSchema, ...errors } },
    },
    async (request) => meetings.end(request.user!.id, request.params.id),
  );

  app.delete(
    API.videoconferenceSession,
    {
      config: { session: 'full' },
      schema: { tags, params: IdParams, response: { 200: VideoconferenceSchema, ...errors } },
    },
    async (request) => meetings.endSession(request.user!.id, request.params.id),
  );

  app.post(
    API.meetingToken,
    {
      config: { session: 'full' },
      schema: {
        tags,
        body: MeetingTokenRequestSchema,
        response: { 200: MeetingTokenResponseSchema, 202: LobbyWaitingResponseSchema, ...errors },
      },
      preHandler: [app.limit({ name: 'meet-token', max: 120, window: '1 minute' })],
    },
    async (request, reply) =>
      tokenOrWait(
        reply,
        await meetings.userToken(
          request.user!,
          request.body.room_name,
          request.body.display_name,
          browserOf(request, request.body.invite),
        ),
        false,
      ),
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
        response: { 200: GuestMeetingTokenResponseSchema, 202: LobbyWaitingResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      tokenOrWait(
        reply,
        await meetings.guestToken(
          request.body.guest_id,
          request.body.room_name,
          request.body.display_name,
          browserOf(request, request.body.invite),
        ),
        true,
      ),
  );

  app.post(
    API.videoconferenceSessionPing,
    {
      // One ping every few minutes per person in the room; bearer for users, guest_id for guests.
      config: { session: 'optional' },
      preHandler: app.limit({ name: 'meet-ping', max: 600, window: '1 minute' }),
      schema: {
        tags,
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
    config: { session: 'optional' as const },
    preHandler: app.limit({ name: 'meet-presence', max: 3000, window: '1 minute' }),
    schema: {
      tags,
      params: IdParams,
      body: PresenceRequestSchema.optional(),
      response: { 204: z.null(), ...errors },
    },
  };
  const presenceIdentity = (request: FastifyRequest, token: string | undefined): PresenceIdentity => {
    if (request.user) return { kind: 'user', user: request.user, lobbyCookie: request.cookies[LOBBY_COOKIE] };
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

  // The lobby. The waiting person's calls are bound to the browser by the lobby cookie alone; the host's
  // and co-hosts' by their session (anyone else reads "not found").
  const lobby = meetings.lobby;
  app.get(
    LOBBY_API.mine,
    {
      preHandler: app.limit({ name: 'lobby-mine', max: 120, window: '1 minute' }),
      schema: { tags, params: IdParams, response: { 200: LobbyStatusSchema, ...errors } },
    },
    async (request) => (await lobby.mine(request.params.id, request.cookies[LOBBY_COOKIE])).status,
  );
  app.get(
    LOBBY_API.mineEvents,
    {
      preHandler: app.limit({ name: 'lobby-mine-events', max: 60, window: '1 minute' }),
      schema: { tags, params: IdParams },
    },
    async (request, reply) => {
      const cookie = request.cookies[LOBBY_COOKIE];
      const { id } = await lobby.mine(request.params.id, cookie);
      const meetingId = await lobby.meetingOf(request.params.id);
      await lobby.touch(id);
      stream(
        request,
        reply,
        meetingId,
        'status',
        async () => (await lobby.mine(meetingId, cookie)).status,
        async (tick) => {
          if (tick % TOUCH_EVERY_TICKS === 0) await lobby.touch(id);
        },
      );
    },
  );
  app.delete(
    LOBBY_API.mine,
    {
      preHandler: app.limit({ name: 'lobby-cancel', max: 60, window: '1 minute' }),
      schema: { tags, params: IdParams, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await lobby.cancel(request.params.id, request.cookies[LOBBY_COOKIE]);
      return reply.status(204).send(null);
    },
  );

  app.get(
    LOBBY_API.requests,
    {
      config: { session: 'full' },
      schema: { tags, params: IdParams, response: { 200: LobbyRequestListSchema, ...errors } },
    },
    async (request) => lobby.list(request.user!, request.params.id),
  );
  app.get(
    LOBBY_API.requestEvents,
    {
      config: { session: 'full' },
      schema: { tags, params: IdParams, response: errors },
      preHandler: [app.limit({ name: 'lobby-events', max: 60, window: '1 minute' })],
    },
    async (request, reply) => {
      const user = request.user!;
      const meetingId = await lobby.admitterMeeting(user, request.params.id);
      stream(request, reply, meetingId, 'requests', () => lobby.list(user, meetingId));
    },
  );
  const decisionLimit = app.limit({ name: 'lobby-decide', max: 600, window: '1 minute', by: 'user' });
  app.post(
    LOBBY_API.admit,
    {
      config: { session: 'full' },
      schema: { tags, params: RequestParams, response: { 200: LobbyDecisionResponseSchema, ...errors } },
      preHandler: [decisionLimit],
    },
    async (request) => ({
      admitted: await lobby.decide(request.user!, request.params.id, request.params.requestId, 'admit'),
    }),
  );
  app.post(
    LOBBY_API.deny,
    {
      config: { session: 'full' },
      schema: { tags, params: RequestParams, response: { 200: LobbyDecisionResponseSchema, ...errors } },
      preHandler: [decisionLimit],
    },
    async (request) => {
      await lobby.decide(request.user!, request.params.id, request.params.requestId, 'deny');
      return { admitted: 0 };
    },
  );
  app.post(
    LOBBY_API.admitAll,
    {
      config: { session: 'full' },
      schema: { tags, params: IdParams, response: { 200: LobbyDecisionResponseSchema, ...errors } },
      preHandler: [decisionLimit],
    },
    async (request) => ({ admitted: await lobby.decide(request.user!, request.params.id, undefined, 'admit') }),
  );
  app.patch(
    LOBBY_API.access,
    {
      config: { session: 'full' },
      schema: {
        tags,
        params: IdParams,
        body: MeetingAccessRequestSchema,
        response: { 200: VideoconferenceSchema, ...errors },
      },
    },
    async (request) => lobby.setAccess(request.user!, request.params.id, request.body.access),
  );
  app.get(
    LOBBY_API.cohosts,
    { config: { session: 'full' }, schema: { tags, params: IdParams, response: { 200: CohostListSchema, ...errors } } },
    async (request) => ({ data: await lobby.cohosts(request.user!.id, request.params.id) }),
  );
  app.post(
    LOBBY_API.cohosts,
    {
      config: { session: 'full' },
      schema: { tags, params: IdParams, body: CohostRequestSchema, response: { 200: CohostListSchema, ...errors } },
      preHandler: [app.limit({ name: 'lobby-cohost', max: 60, window: '1 hour', by: 'user' })],
    },
    async (request) => ({ data: await lobby.addCohost(request.user!.id, request.params.id, request.body.email) }),
  );
  app.get(
    LOBBY_API.invitees,
    {
      config: { session: 'full' },
      schema: { tags, params: IdParams, response: { 200: InviteeListSchema, ...errors } },
    },
    async (request) => ({ data: await lobby.invitees(request.user!.id, request.params.id) }),
  );
  app.post(
    LOBBY_API.invitees,
    {
      config: { session: 'full' },
      schema: { tags, params: IdParams, body: InviteRequestSchema, response: { 200: InviteeListSchema, ...errors } },
      // Each address is a mail: bounded per host like the account invitations.
      preHandler: [app.limit({ name: 'meeting-invite', max: 20, window: '1 hour', by: 'user' })],
    },
    async (request) => ({ data: await lobby.invite(request.user!, request.params.id, request.body.emails) }),
  );
  app.delete(
    LOBBY_API.invitee,
    {
      config: { session: 'full' },
      schema: { tags, params: InviteeParams, response: { 200: InviteeListSchema, ...errors } },
    },
    async (request) => ({
      data: await lobby.revokeInvitee(request.user!.id, request.params.id, request.params.inviteeId),
    }),
  );
  app.delete(
    LOBBY_API.cohost,
    {
      config: { session: 'full' },
      schema: { tags, params: CohostParams, response: { 200: CohostListSchema, ...errors } },
    },
    async (request) => ({
      data: await lobby.removeCohost(request.user!.id, request.params.id, request.params.userId),
    }),
  );
};

export default meetingRoutes;
