import {
  VIDEOCONFERENCE_API,
  AUTH_HTTP_TIMEOUT_MS,
  GuestMeetingTokenResponseSchema,
  LobbyWaitingResponseSchema,
  MeetingTokenResponseSchema,
  SessionPingResponseSchema,
  type LobbyStatus,
  type MeetingTokenResponse,
  type SessionPingResponse,
} from '@suite/contract';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import type { Identity } from '../lib/identity';

/**
 * The meeting calls the waiting room repeats: POST, the meeting timeout for user and guest alike; a 429
 * comes back as RetryLaterError (lib/api-client) so that the waiting room waits as long as the server asks.
 */
function meetingPost<T>(
  path: string,
  params: Record<string, string>,
  body: object,
  auth: boolean,
  schema: { safeParse(data: unknown): { success: true; data: T } | { success: false } },
  signal?: AbortSignal,
): Promise<T> {
  return apiRequest({ method: 'POST', path, params, body, auth, schema, signal, timeoutMs: AUTH_HTTP_TIMEOUT_MS });
}

/** The token, or (202) for a person who must wait where their request to join stands. */
export type TokenAnswer = { token: MeetingTokenResponse } | { lobby: LobbyStatus };

const UserAnswerSchema = z.union([MeetingTokenResponseSchema, LobbyWaitingResponseSchema]);
const GuestAnswerSchema = z.union([GuestMeetingTokenResponseSchema, LobbyWaitingResponseSchema]);

/**
 * POST /v2/videoconference/token (bearer) or /v2/videoconference/guest/token: the meeting token, or the
 * lobby (no token: a request bound to this browser by an HttpOnly cookie). A name from the link
 * (first_name/last_name) is signed into the token: Jitsi shows the token's name.
 */
export async function fetchMeetingToken(
  roomName: string,
  identity: Identity,
  displayName: string | null,
  signal?: AbortSignal,
  invite: string | null = null,
): Promise<TokenAnswer> {
  const name = { ...(displayName ? { display_name: displayName } : {}), ...(invite ? { invite } : {}) };
  if (identity.kind === 'user') {
    const answer = await meetingPost(
      VIDEOCONFERENCE_API.meetingToken,
      {},
      { room_name: roomName, ...name },
      true,
      UserAnswerSchema,
      signal,
    );
    return 'lobby' in answer ? answer : { token: answer };
  }
  const answer = await meetingPost(
    VIDEOCONFERENCE_API.guestMeetingToken,
    {},
    { room_name: roomName, guest_id: identity.guestId, ...name },
    false,
    GuestAnswerSchema,
    signal,
  );
  return 'lobby' in answer ? answer : { token: answer.data };
}

/** POST /v2/videoconference/:id/session/ping: "still in the room", so the session does not go idle. */
export function pingMeetingSession(roomName: string, identity: Identity): Promise<SessionPingResponse> {
  return meetingPost(
    VIDEOCONFERENCE_API.videoconferenceSessionPing,
    { id: roomName },
    identity.kind === 'guest' ? { guest_id: identity.guestId } : {},
    identity.kind === 'user',
    SessionPingResponseSchema,
  );
}
