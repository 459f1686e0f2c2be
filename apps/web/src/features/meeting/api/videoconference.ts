import { API, VideoconferencePublicSchema, type VideoconferencePublic } from '@suite/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /v2/videoconference/:id (public): tells a valid invite from an invalid or unknown one early. */
export function fetchVideoconference(roomName: string, signal?: AbortSignal): Promise<VideoconferencePublic> {
  return apiRequest({
    path: API.videoconference,
    params: { id: roomName },
    schema: VideoconferencePublicSchema,
    ...(signal ? { signal } : {}),
  });
}
