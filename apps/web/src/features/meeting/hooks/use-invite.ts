import { useEffect, useState } from 'react';
import type { VideoconferencePublic } from '@suite/contract/core';
import { ApiError } from '../../../lib/api-client';
import { fetchVideoconference } from '../../../lib/videoconference';

/** Who is in the room, as the server last said (null: not known, e.g. its presence store is down). */
export type Participants = NonNullable<VideoconferencePublic['participants']> | null;

/** `status`: what the server says of the meeting's session (null: not asked, a `jwt` link). */
export type Invite =
  | { state: 'checking' }
  | {
      state: 'ok';
      title: string;
      hostName: string;
      status: 'not_started' | 'started' | null;
      participants: Participants;
      /** 'ask': Join asks to join (the lobby); 'direct': straight in once the host is there. */
      join: 'direct' | 'ask';
      /** Signed in as the meeting's host: Join starts it. */
      isHost: boolean;
    }
  | { state: 'error'; code: string };

/** How often the pre-join asks again whether the host has started and who is in (the line next to Join). */
const STATUS_REFRESH_MS = 15_000;

/**
 * Is the link valid? Asked before anything else, so nobody sets up devices for a dead link. While `watch`
 * is true (the pre-join), asked again every STATUS_REFRESH_MS, and whenever the tab comes back into view,
 * so that the meeting's state and who is in the room stay current; a failed refresh keeps what was known.
 */
export function useInvite(roomName: string, skip: boolean, watch = false): Invite {
  const [invite, setInvite] = useState<Invite>({ state: 'checking' });
  useEffect(() => {
    if (skip) {
      setInvite({
        state: 'ok',
        title: '',
        hostName: '',
        status: null,
        participants: null,
        join: 'direct',
        isHost: false,
      });
      return;
    }
    const controller = new AbortController();
    fetchVideoconference(roomName, controller.signal)
      .then((vc) =>
        setInvite(
          vc.status === 'ended'
            ? { state: 'error', code: 'ERR_INVITE_NOT_VALID' }
            : {
                state: 'ok',
                title: vc.title,
                hostName: vc.host_name,
                status: vc.status,
                participants: vc.participants ?? null,
                join: vc.join ?? 'direct',
                isHost: vc.is_host === true,
              },
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
    const refresh = () =>
      fetchVideoconference(roomName, controller.signal)
        .then(({ title, status, participants, join }) => {
          if (status === 'ended') return;
          setInvite((known) =>
            known.state === 'ok'
              ? { ...known, title, status, participants: participants ?? null, join: join ?? known.join }
              : known,
          );
        })
        .catch(() => undefined);
    const timer = window.setInterval(refresh, STATUS_REFRESH_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      controller.abort();
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
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
