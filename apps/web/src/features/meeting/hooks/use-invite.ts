import { useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { fetchVideoconference } from '../../../lib/videoconference';

export type Invite =
  { state: 'checking' } | { state: 'ok'; title: string; hostName: string } | { state: 'error'; code: string };

/** Is the link valid? Asked before anything else, so nobody sets up devices for a dead link. */
export function useInvite(roomName: string, skip: boolean): Invite {
  const [invite, setInvite] = useState<Invite>({ state: 'checking' });
  useEffect(() => {
    if (skip) {
      setInvite({ state: 'ok', title: '', hostName: '' });
      return;
    }
    const controller = new AbortController();
    fetchVideoconference(roomName, controller.signal)
      .then((vc) =>
        setInvite(
          vc.status === 'ended'
            ? { state: 'error', code: 'ERR_INVITE_NOT_VALID' }
            : { state: 'ok', title: vc.title, hostName: vc.host_name },
        ),
      )
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          setInvite({ state: 'error', code: error instanceof ApiError ? error.code : 'ERR_NETWORK' });
      });
    return () => controller.abort();
  }, [roomName, skip]);
  return invite;
}

/** With a `jwt` in the query there is no token to fetch: still show 'entering' for the join delay. */
export function useDelay(active: boolean, ms: number, attempt: number): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    setReady(false);
    if (!active) return;
    const timer = window.setTimeout(() => setReady(true), ms);
    return () => window.clearTimeout(timer);
  }, [active, ms, attempt]);
  return ready;
}
