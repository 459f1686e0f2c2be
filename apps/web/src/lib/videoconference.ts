import { API, VideoconferencePublicSchema, type VideoconferencePublic } from '@suite/contract';
import { apiRequest } from './api-client';

/** GET /v2/videoconference/:id (public): a valid invite from an invalid or unknown one, early (room page, guest form). */
export function fetchVideoconference(roomName: string, signal?: AbortSignal): Promise<VideoconferencePublic> {
  return apiRequest({
    path: API.videoconference,
    params: { id: roomName },
    schema: VideoconferencePublicSchema,
    ...(signal ? { signal } : {}),
  });
}
