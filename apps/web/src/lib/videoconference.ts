import { VIDEOCONFERENCE_API } from '@suite/contract/core';
import type { VideoconferencePublic } from '@suite/contract';
import { apiRequest, lazySchema } from './api-client';
import { currentToken } from './session';

/** GET /v2/videoconference/:id (public): a valid invite from an invalid or unknown one, early (room page, guest form). */
export function fetchVideoconference(roomName: string, signal?: AbortSignal): Promise<VideoconferencePublic> {
  return apiRequest({
    path: VIDEOCONFERENCE_API.videoconference,
    params: { id: roomName },
    // Signed in: the answer says whether Join goes straight in or asks to join (the lobby).
    auth: Boolean(currentToken()),
    // Loaded with the request: the guest form's first load carries no zod.
    schema: lazySchema('VideoconferencePublicSchema'),
    ...(signal ? { signal } : {}),
  });
}
