import {
  API,
  GuestMeetingTokenResponseSchema,
  MeetingTokenResponseSchema,
  type MeetingTokenResponse,
} from '@suite/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /v2/videoconference/token (bearer): answers `{token, …}`. */
export function fetchUserMeetingToken(roomName: string, signal?: AbortSignal): Promise<MeetingTokenResponse> {
  return apiRequest({
    method: 'POST',
    path: API.meetingToken,
    auth: true,
    body: { room_name: roomName },
    schema: MeetingTokenResponseSchema,
    ...(signal ? { signal } : {}),
  });
}

/** POST /v2/videoconference/guest/token: answers `{data: {token, …}}`. */
export async function fetchGuestMeetingToken(
  roomName: string,
  guestId: string,
  signal?: AbortSignal,
): Promise<MeetingTokenResponse> {
  const answer = await apiRequest({
    method: 'POST',
    path: API.guestMeetingToken,
    body: { room_name: roomName, guest_id: guestId },
    schema: GuestMeetingTokenResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return answer.data;
}
