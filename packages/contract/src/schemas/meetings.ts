import '../zod-config.js';
import { z } from 'zod';
import { AcceptedTermsSchema, DisplayNameInputSchema } from './common.js';
import { MeetingAccessSchema } from '../meeting-lobby.js';

/** Room names are our video-conference ids: URL-safe, bounded. */
export const RoomNameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

// POST /v2/videoconference (bearer)
export const CreateVideoconferenceRequestSchema = z.object({
  /** Shown to every guest: checked by the server with the one display-name rule (checkDisplayName). */
  title: DisplayNameInputSchema.optional(),
  /** Who goes straight in; absent: the operator's MEETING_DEFAULT_ACCESS. */
  access: MeetingAccessSchema.optional(),
});
export const VideoconferenceSchema = z.object({
  _id: z.string(),
  title: z.string(),
  host: z.string(),
  status: z.enum(['not_started', 'started', 'ended']),
  link: z.string(),
  created_at: z.string(),
  /** Who goes straight in (the lobby); everyone else asks to join. */
  access: MeetingAccessSchema,
});
export type Videoconference = z.infer<typeof VideoconferenceSchema>;
export const VideoconferenceListSchema = z.object({ data: z.array(VideoconferenceSchema) });
/** GET /v2/videoconference/:id (public): enough for the room page to tell a valid invite from an invalid one. */
export const VideoconferencePublicSchema = VideoconferenceSchema.pick({ _id: true, title: true, status: true }).extend({
  /**
   * An untitled meeting's host by first name, so that it reads "Ada's meeting" and not as its id: under the
   * one display-name rule, never an address; '' when the meeting has a title or the host no usable name.
   */
  host_name: z.string(),
  /**
   * Who is in the room now: the number of people whose room page reported in within
   * PRESENCE_TTL_S, and the first names of the first of them to arrive (at most PRESENCE_NAMES_SHOWN; a
   * person without a usable first name is counted, not named). Absent when the presence store cannot be
   * read (Redis down) or the meeting has ended.
   */
  participants: z.object({ count: z.number().int().nonnegative(), names: z.array(z.string()) }).optional(),
  /**
   * What Join does for the caller (a bearer makes it the signed-in person's answer): 'direct' straight in
   * once the host is there, 'ask' asks to join (the lobby).
   */
  join: z.enum(['direct', 'ask']).optional(),
  /** With a bearer: whether the caller is the meeting's host (their Join starts it). */
  is_host: z.boolean().optional(),
});
export type VideoconferencePublic = z.infer<typeof VideoconferencePublicSchema>;

// POST /v2/videoconference/token (bearer) and /v2/videoconference/guest/token
// room_name is shape-checked by the service so that a malformed id answers ERR_INVITE_NOT_VALID.
export const MeetingTokenRequestSchema = z.object({
  room_name: z.string().max(256),
  /**
   * The name to show in the meeting (the link's first_name/last_name): Jitsi takes the display name from
   * the token's context.user.name, so it has to be signed into the token. Plain text, bounded.
   */
  display_name: z.string().max(200).optional(),
  /** An invitee's personal link token (`?invite=` of the mailed link): lets its holder past the lobby. */
  invite: z.string().max(128).optional(),
});
export type MeetingTokenRequest = z.infer<typeof MeetingTokenRequestSchema>;
export const GuestMeetingTokenRequestSchema = MeetingTokenRequestSchema.extend({
  /** The guest record created by POST /guest (stored by the web app as guestId). */
  guest_id: z.string().min(1).max(64),
});
export type GuestMeetingTokenRequest = z.infer<typeof GuestMeetingTokenRequestSchema>;
export const MeetingTokenResponseSchema = z.object({
  token: z.string(),
  moderator: z.boolean(),
  domain: z.string(),
  room: z.string(),
});
export type MeetingTokenResponse = z.infer<typeof MeetingTokenResponseSchema>;
export const GuestMeetingTokenResponseSchema = z.object({ data: MeetingTokenResponseSchema });

// POST /v2/videoconference/:id/session/ping (bearer, or a guest_id for guests)
export const SessionPingRequestSchema = z.object({
  guest_id: z.string().min(1).max(64).optional(),
});
export type SessionPingRequest = z.infer<typeof SessionPingRequestSchema>;
export const SessionPingResponseSchema = z.object({
  /** 'started': the session is open (and now kept alive); 'not_started': it has ended (host or idle). */
  status: z.enum(['started', 'not_started']),
  /** When to ping next: comfortably inside the server's idle limit. */
  ping_interval_s: z.number().int().positive(),
});
export type SessionPingResponse = z.infer<typeof SessionPingResponseSchema>;

// PUT and DELETE /v2/videoconference/:id/presence: bearer for signed-in users; a guest proves the room with
// the meeting token our server gave it for this room (its guest id alone is not tied to a meeting).
export const PresenceRequestSchema = z.object({
  token: z.string().min(1).max(8192).optional(),
});
export type PresenceRequest = z.infer<typeof PresenceRequestSchema>;

// POST /guest
export const GuestRequestSchema = z.object({
  name: DisplayNameInputSchema,
  accepted_terms: AcceptedTermsSchema,
});
export type GuestRequest = z.infer<typeof GuestRequestSchema>;
export const GuestResponseSchema = z.object({
  _id: z.string(),
  name: z.string(),
  accepted_terms: AcceptedTermsSchema,
  created_at: z.string(),
});
export type GuestResponse = z.infer<typeof GuestResponseSchema>;
