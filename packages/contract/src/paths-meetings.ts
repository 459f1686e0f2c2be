/**
 * Meeting paths of spec §7. Mounted under API_PREFIX;
 * API (paths.ts) is all of them. A table per area, each its own module: the web bundles a module whole
 * into one chunk, so the first screens' chunk carries only the paths they call.
 */
export const VIDEOCONFERENCE_API = {
  videoconferences: '/v2/videoconference',
  videoconference: '/v2/videoconference/:id',
  videoconferenceSession: '/v2/videoconference/:id/session',
  /** While joined, the room page says "still here" so the session does not reach its idle limit. */
  videoconferenceSessionPing: '/v2/videoconference/:id/session/ping',
  meetingToken: '/v2/videoconference/token',
  guestMeetingToken: '/v2/videoconference/guest/token',
} as const;
