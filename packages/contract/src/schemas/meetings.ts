import { z } from 'zod';
import { AcceptedTermsSchema } from './common.js';

/** Room names are our video-conference ids: URL-safe, bounded. */
export const RoomNameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

// POST /v2/videoconference (bearer)
export const CreateVideoconferenceRequestSchema = z.object({
  title: z.string().trim().max(120).optional(),
});
export const VideoconferenceSchema = z.object({
  _id: z.string(),
  title: z.string(),
  host: z.string(),
  status: z.enum(['not_started', 'started', 'ended']),
  link: z.string(),
  created_at: z.string(),
});
export type Videoconference = z.infer<typeof VideoconferenceSchema>;
export const VideoconferenceListSchema = z.object({ data: z.array(VideoconferenceSchema) });

// POST /v2/videoconference/token (bearer) and /v2/videoconference/guest/token
export const MeetingTokenRequestSchema = z.object({
  room_name: RoomNameSchema,
  /** Guest endpoint: the guest record created by POST /guest. */
  guest_id: z.string().max(64).optional(),
});
export type MeetingTokenRequest = z.infer<typeof MeetingTokenRequestSchema>;
export const MeetingTokenResponseSchema = z.object({
  token: z.string(),
  moderator: z.boolean(),
  domain: z.string(),
  room: z.string(),
});
export type MeetingTokenResponse = z.infer<typeof MeetingTokenResponseSchema>;
export const GuestMeetingTokenResponseSchema = z.object({ data: MeetingTokenResponseSchema });

// POST /guest
export const GuestRequestSchema = z.object({
  name: z.string().trim().min(1).max(100),
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
