import { API_PREFIX, MEETING_API, apiPath } from '@suite/contract/core';
import { apiRequest } from '../../../lib/api-client';
import { currentToken } from '../../../lib/session';

/**
 * How the room page proves it may report presence: a signed-in user by the session (bearer), a guest by the
 * meeting token our server signed for this room (its guest id is not tied to any meeting).
 */
export type PresenceProof = { kind: 'user' } | { kind: 'guest'; meetingToken: string };

const bodyOf = (proof: PresenceProof) => (proof.kind === 'guest' ? { token: proof.meetingToken } : {});

/** PUT /v2/videoconference/:id/presence: "I am in the room" (every PRESENCE_HEARTBEAT_S while joined). */
export async function reportPresence(roomName: string, proof: PresenceProof): Promise<void> {
  await apiRequest({
    method: 'PUT',
    path: MEETING_API.videoconferencePresence,
    params: { id: roomName },
    body: bodyOf(proof),
    auth: proof.kind === 'user',
  });
}

/**
 * DELETE /v2/videoconference/:id/presence: "I left". Sent with `keepalive`, so that it still goes out as the
 * page is closed or navigated away (pagehide); its answer is not awaited by anyone.
 */
export function leavePresence(roomName: string, proof: PresenceProof): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const bearer = proof.kind === 'user' ? currentToken() : null;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  void fetch(`${API_PREFIX}${apiPath(MEETING_API.videoconferencePresence, { id: roomName })}`, {
    method: 'DELETE',
    headers,
    body: JSON.stringify(bodyOf(proof)),
    keepalive: true,
    credentials: 'same-origin',
  }).catch(() => undefined);
}
