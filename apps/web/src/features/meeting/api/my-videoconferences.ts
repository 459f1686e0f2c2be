import {
  VIDEOCONFERENCE_API,
  LOBBY_API,
  VideoconferenceListSchema,
  VideoconferenceSchema,
  type MeetingAccess,
  type Videoconference,
} from '@suite/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /v2/videoconference (bearer): the signed-in user's own conferences. */
export async function listVideoconferences(): Promise<Videoconference[]> {
  return (
    await apiRequest({ path: VIDEOCONFERENCE_API.videoconferences, auth: true, schema: VideoconferenceListSchema })
  ).data;
}

/** POST /v2/videoconference (bearer): a new conference hosted by the caller. */
export function createVideoconference(title?: string, access?: MeetingAccess): Promise<Videoconference> {
  return apiRequest({
    method: 'POST',
    path: VIDEOCONFERENCE_API.videoconferences,
    auth: true,
    body: { ...(title ? { title } : {}), ...(access ? { access } : {}) },
    schema: VideoconferenceSchema,
  });
}

/** DELETE /v2/videoconference/:id (bearer): ends it for good; its link stops working. */
export function endVideoconference(id: string): Promise<Videoconference> {
  return apiRequest({
    method: 'DELETE',
    path: VIDEOCONFERENCE_API.videoconference,
    params: { id },
    auth: true,
    schema: VideoconferenceSchema,
  });
}

/** DELETE /v2/videoconference/:id/session (bearer, host): ends the current session; newcomers wait again. */
export function endMeetingSession(id: string): Promise<Videoconference> {
  return apiRequest({
    method: 'DELETE',
    path: VIDEOCONFERENCE_API.videoconferenceSession,
    params: { id },
    auth: true,
    schema: VideoconferenceSchema,
  });
}

/** PATCH /v2/videoconference/:id/access (host, co-host): who goes straight in from now on. */
export function setMeetingAccess(id: string, access: MeetingAccess): Promise<Videoconference> {
  return apiRequest({
    method: 'PATCH',
    path: LOBBY_API.access,
    params: { id },
    auth: true,
    body: { access },
    schema: VideoconferenceSchema,
  });
}
