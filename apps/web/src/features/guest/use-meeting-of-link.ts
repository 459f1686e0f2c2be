import { useEffect, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { safeRedirectTarget } from '../../lib/safe-redirect';
import { fetchVideoconference } from '../../lib/videoconference';

export type MeetingOfLink = { state: 'none' } | { state: 'ok'; name: string } | { state: 'dead'; code: string };

/** Codes that mean the link leads nowhere: the guest is told so before being asked for anything. */
const DEAD = ['ERR_INVITE_NOT_VALID', 'ERR_VIDEOCONFERENCE_NOT_FOUND', 'ERR_MEETINGS_NOT_CONFIGURED'];

/** The meeting a `/guest?vc_link=/meet/<room>` leads to: its name, or why it cannot be joined. */
export function useMeetingOfLink(vcLink: string | null): MeetingOfLink {
  const path = safeRedirectTarget(vcLink);
  const room = path ? /^\/meet\/([^/?#]+)/.exec(path)?.[1] : undefined;
  const [meeting, setMeeting] = useState<MeetingOfLink>({ state: 'none' });
  useEffect(() => {
    if (!room) return;
    const controller = new AbortController();
    const roomName = decodeURIComponent(room);
    fetchVideoconference(roomName, controller.signal)
      .then((vc) =>
        setMeeting(
          vc.status === 'ended'
            ? { state: 'dead', code: 'ERR_INVITE_NOT_VALID' }
            : { state: 'ok', name: vc.title || roomName },
        ),
      )
      .catch((error: unknown) => {
        // Only a definite answer blocks the form; a network hiccup leaves it to the room page.
        if (!controller.signal.aborted && error instanceof ApiError && DEAD.includes(error.code))
          setMeeting({ state: 'dead', code: error.code });
      });
    return () => controller.abort();
  }, [room]);
  return meeting;
}
