import {
  API,
  API_PREFIX,
  AUTH_HTTP_TIMEOUT_MS,
  apiPath,
  GuestMeetingTokenResponseSchema,
  MeetingTokenResponseSchema,
  SessionPingResponseSchema,
  type MeetingTokenResponse,
  type SessionPingResponse,
} from '@suite/contract';
import { ApiError } from '../../../lib/api-client';
import { currentToken } from '../../../lib/session';
import type { Identity } from '../lib/identity';

/** An API failure that says when to ask again (429 with Retry-After). */
export class RetryLaterError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    /** From Retry-After (seconds or an HTTP date); null when the answer gave none. */
    readonly retryAfterMs: number | null,
  ) {
    super(status, code, message);
  }
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

interface Schema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

/**
 * The meeting calls the waiting room repeats. Like lib/api-client's apiRequest (same errors, same timeout),
 * but a 429 keeps its Retry-After so that the waiting room can wait as long as the server asks.
 */
async function meetingPost<T>(
  path: string,
  params: Record<string, string>,
  body: object,
  auth: boolean,
  schema: Schema<T>,
  signal?: AbortSignal,
): Promise<T> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/json',
    'accept-language': document.documentElement.lang || navigator.language || 'en',
  };
  const bearer = auth ? currentToken() : null;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const timeout = AbortSignal.timeout(AUTH_HTTP_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${API_PREFIX}${apiPath(path, params)}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    if (timeout.aborted) throw new ApiError(0, 'ERR_TIMEOUT', 'The server took too long to answer.');
    throw new ApiError(0, 'ERR_NETWORK', 'Could not connect to the server.');
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const error = json as { error_code?: unknown; message?: unknown; details?: { path: string; message: string }[] };
    const code = typeof error?.error_code === 'string' ? error.error_code : 'ERR_REQUEST';
    const message = typeof error?.message === 'string' ? error.message : 'Request Error';
    if (response.status === 429) {
      throw new RetryLaterError(429, code, message, parseRetryAfter(response.headers.get('retry-after')));
    }
    throw new ApiError(response.status, code, message, error?.details);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiError(response.status, 'ERR_REQUEST', 'Request Error');
  return parsed.data;
}

/**
 * POST /v2/videoconference/token (bearer) or /v2/videoconference/guest/token: the meeting token. A name
 * from the link (first_name/last_name) is signed into the token: Jitsi shows the token's name.
 */
export async function fetchMeetingToken(
  roomName: string,
  identity: Identity,
  displayName: string | null,
  signal?: AbortSignal,
): Promise<MeetingTokenResponse> {
  const name = displayName ? { display_name: displayName } : {};
  if (identity.kind === 'user') {
    return meetingPost(
      API.meetingToken,
      {},
      { room_name: roomName, ...name },
      true,
      MeetingTokenResponseSchema,
      signal,
    );
  }
  const answer = await meetingPost(
    API.guestMeetingToken,
    {},
    { room_name: roomName, guest_id: identity.guestId, ...name },
    false,
    GuestMeetingTokenResponseSchema,
    signal,
  );
  return answer.data;
}

/** POST /v2/videoconference/:id/session/ping: "still in the room", so the session does not go idle. */
export function pingMeetingSession(roomName: string, identity: Identity): Promise<SessionPingResponse> {
  return meetingPost(
    API.videoconferenceSessionPing,
    { id: roomName },
    identity.kind === 'guest' ? { guest_id: identity.guestId } : {},
    identity.kind === 'user',
    SessionPingResponseSchema,
  );
}
