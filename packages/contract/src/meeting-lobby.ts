import { z } from 'zod';

/**
 * The meeting lobby: who goes straight into a meeting, and the requests to join of everyone
 * else, which the host and co-hosts admit or deny. A module of its own, like meeting-presence.ts, so that
 * only the meeting screens' lazy chunks carry it.
 */

/**
 * Who goes straight in once the host is there: 'open' anyone with the link (the spec's flow);
 * 'organisation' signed-in people of the host's domain; 'restricted' the host and co-hosts only.
 * Everyone else asks to join.
 */
export const MEETING_ACCESS_LEVELS = ['open', 'organisation', 'restricted'] as const;
export const MeetingAccessSchema = z.enum(MEETING_ACCESS_LEVELS);
export type MeetingAccess = z.infer<typeof MeetingAccessSchema>;

/** A request ends this long after the waiting page last asked (its stream open, or a new ask). */
export const LOBBY_REQUEST_TTL_S = 600;
/** A person denied this many times in one meeting cannot ask again in it. */
export const LOBBY_MAX_DENIALS = 2;
/** New requests to join one address may make per LOBBY_ASK_WINDOW_S (all meetings together). */
export const LOBBY_ASKS_PER_ADDRESS = 30;
/**
 * Days a request is kept after its last use (asked, decided): what "denied twice in this meeting" counts
 * over; older ones are purged, so a room used for years does not keep everyone who ever knocked.
 */
export const LOBBY_RETENTION_DAYS = 30;
export const LOBBY_ASK_WINDOW_S = 600;
/** Co-hosts per meeting. */
export const MEETING_MAX_COHOSTS = 20;
/** Invitees per meeting, and addresses per invitation call. */
export const MEETING_MAX_INVITEES = 200;
export const MEETING_INVITES_PER_CALL = 50;

/** Calls of the lobby (mounted under API_PREFIX), read by the meeting's lazy chunks and the server alone. */
export const LOBBY_API = {
  /** PATCH (host, co-host): the meeting's access level. */
  access: '/v2/videoconference/:id/access',
  /** GET the co-hosts, POST one more by address (host only). */
  cohosts: '/v2/videoconference/:id/cohosts',
  /** DELETE a co-host (host only). */
  cohost: '/v2/videoconference/:id/cohosts/:userId',
  /** GET who was invited and who joined; POST more addresses (each gets a mail); host only. */
  invitees: '/v2/videoconference/:id/invitees',
  /** DELETE: revokes one invitee's personal link (host only). */
  invitee: '/v2/videoconference/:id/invitees/:inviteeId',
  /** GET (host, co-host): the waiting requests, as JSON. */
  requests: '/v2/videoconference/:id/lobby',
  /** GET (host, co-host): the same list as Server-Sent Events, sent again on every change. */
  requestEvents: '/v2/videoconference/:id/lobby/events',
  /** POST (host, co-host): let every waiting person in. */
  admitAll: '/v2/videoconference/:id/lobby/admit-all',
  /** POST (host, co-host): let one person in / refuse one. */
  admit: '/v2/videoconference/:id/lobby/requests/:requestId/admit',
  deny: '/v2/videoconference/:id/lobby/requests/:requestId/deny',
  /** GET this browser's request (cookie-bound); DELETE cancels it. */
  mine: '/v2/videoconference/:id/lobby/me',
  /** GET this browser's request as Server-Sent Events: the decision is pushed. */
  mineEvents: '/v2/videoconference/:id/lobby/me/events',
} as const;

/** Where a request to join stands, as the waiting person reads it. */
export const LobbyStatusSchema = z.object({
  status: z.enum(['waiting', 'admitted', 'denied', 'cancelled', 'expired']),
  /** First name of the person who can let them in ("Waiting for Ada to let you in"); '' when unknown. */
  waiting_for: z.string(),
  /** false: nobody who can admit is in the room now ("Nobody can let you in yet"). */
  admitter_present: z.boolean(),
  /** After a denial: whether one more request is allowed in this meeting. */
  can_ask_again: z.boolean(),
});
export type LobbyStatus = z.infer<typeof LobbyStatusSchema>;
/** The token calls' answer (202) to a person who must wait: no token, where the request stands. */
export const LobbyWaitingResponseSchema = z.object({ lobby: LobbyStatusSchema });
export type LobbyWaitingResponse = z.infer<typeof LobbyWaitingResponseSchema>;

/** One waiting person, as the host and co-hosts read it. */
export const LobbyRequestSchema = z.object({
  id: z.string(),
  name: z.string(),
  signed_in: z.boolean(),
  /** The domain of a signed-in person's address; '' for a guest. */
  domain: z.string(),
  /** When they started waiting (ISO). */
  since: z.string(),
});
export type LobbyRequest = z.infer<typeof LobbyRequestSchema>;
export const LobbyRequestListSchema = z.object({ access: MeetingAccessSchema, requests: z.array(LobbyRequestSchema) });
export type LobbyRequestList = z.infer<typeof LobbyRequestListSchema>;
export const LobbyDecisionResponseSchema = z.object({ admitted: z.number().int().nonnegative() });

export const MeetingAccessRequestSchema = z.object({ access: MeetingAccessSchema });
export const CohostRequestSchema = z.object({ email: z.string().min(3).max(254) });
export const CohostSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export const CohostListSchema = z.object({ data: z.array(CohostSchema) });
export type Cohost = z.infer<typeof CohostSchema>;

export const InviteRequestSchema = z.object({
  emails: z.array(z.string().min(3).max(254)).min(1).max(MEETING_INVITES_PER_CALL),
});
export const InviteeSchema = z.object({
  id: z.string(),
  email: z.string(),
  invited_at: z.string(),
  /** When the personal link was first used to join; null: not yet. */
  joined_at: z.string().nullable(),
  revoked: z.boolean(),
});
export const InviteeListSchema = z.object({ data: z.array(InviteeSchema) });
export type Invitee = z.infer<typeof InviteeSchema>;
