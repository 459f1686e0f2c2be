import { useEffect, useState } from 'react';
import { MEET_JOIN_DELAY_MS, WAITING_FOR_HOST_RETRY_MS, type MeetingTokenResponse } from '@suite/contract/core';
import { ApiError } from '../../../lib/api-client';
import { fetchGuestMeetingToken, fetchUserMeetingToken } from '../api/meeting-token';

export type Identity = { kind: 'user' } | { kind: 'guest'; guestId: string };

export type TokenState =
  | { name: 'connecting' }
  | { name: 'waiting' }
  | { name: 'entering'; token: MeetingTokenResponse }
  | { name: 'ready'; token: MeetingTokenResponse }
  | { name: 'failed'; error: unknown };

/**
 * Spec §4: obtain the meeting token (user endpoint when signed in, guest endpoint otherwise); while the
 * host is not in (401 ERR_SESSION_NOT_STARTED) wait and ask again every 5 s; with a token show 'entering'
 * and join after 2 s.
 */
export function useMeetingToken(roomName: string, identity: Identity | null, attempt: number): TokenState {
  const [state, setState] = useState<TokenState>({ name: 'connecting' });
  useEffect(() => {
    if (!identity) return;
    const controller = new AbortController();
    let timer = 0;
    const ask = async () => {
      try {
        const token =
          identity.kind === 'user'
            ? await fetchUserMeetingToken(roomName, controller.signal)
            : await fetchGuestMeetingToken(roomName, identity.guestId, controller.signal);
        if (controller.signal.aborted) return;
        setState({ name: 'entering', token });
        timer = window.setTimeout(() => setState({ name: 'ready', token }), MEET_JOIN_DELAY_MS);
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.code === 'ERR_SESSION_NOT_STARTED') {
          setState({ name: 'waiting' });
          timer = window.setTimeout(() => void ask(), WAITING_FOR_HOST_RETRY_MS);
          return;
        }
        setState({ name: 'failed', error });
      }
    };
    setState({ name: 'connecting' });
    void ask();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [roomName, identity, attempt]);
  return state;
}

/** Asks again quietly (keep-alive "stay"): keeps the server-side session from reaching its idle limit. */
export function touchMeeting(roomName: string, identity: Identity): void {
  const request =
    identity.kind === 'user' ? fetchUserMeetingToken(roomName) : fetchGuestMeetingToken(roomName, identity.guestId);
  request.catch(() => undefined);
}
