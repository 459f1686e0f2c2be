import { useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { fetchVideoconference } from '../../../lib/videoconference';

/** `status`: what the server says of the meeting's session (null: not asked, a `jwt` link). */
export type Invite =
  | { state: 'checking' }
  | { state: 'ok'; title: string; hostName: string; status: 'not_started' | 'started' | null }
  | { state: 'error'; code: string };

/** How often the pre-join asks again whether the host has started (the line next to Join). */
const STATUS_REFRESH_MS = 15_000;

/**
 * Is the link valid? Asked before anything else, so nobody sets up devices for a dead link. While `watch`
 * is true (the pre-join), asked again every STATUS_REFRESH_MS so that the meeting's state stays current;
 * a failed refresh keeps what was known.
 */
export function useInvite(roomName: string, skip: boolean, watch = false): Invite {
  const [invite, setInvite] = useState<Invite>({ state: 'checking' });
  useEffect(() => {
    if (skip) {
      setInvite({ state: 'ok', title: '', hostName: '', status: null });
      return;
    }
    const controller = new AbortController();
    fetchVideoconference(roomName, controller.signal)
      .then((vc) =>
        setInvite(
          vc.status === 'ended'
            ? { state: 'error', code: 'ERR_INVITE_NOT_VALID' }
            : { state: 'ok', title: vc.title, hostName: vc.host_name, status: vc.status },
        ),
      )
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          setInvite({ state: 'error', code: error instanceof ApiError ? error.code : 'ERR_NETWORK' });
      });
    return () => controller.abort();
  }, [roomName, skip]);

  const ok = invite.state === 'ok' && invite.status !== null;
  useEffect(() => {
    if (!watch || !ok) return;
    const controller = new AbortController();
    const timer = window.setInterval(() => {
      fetchVideoconference(roomName, controller.signal)
        .then(({ title, status }) => {
          if (status === 'ended') return;
          setInvite((known) => (known.state === 'ok' ? { ...known, title, status } : known));
        })
        .catch(() => undefined);
    }, STATUS_REFRESH_MS);
    return () => {
      controller.abort();
      window.clearInterval(timer);
    };
  }, [roomName, watch, ok]);
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
