import { useEffect, useState } from 'react';
import { MEET_JOIN_DELAY_MS, WAITING_FOR_HOST_RETRY_MS, type MeetingTokenResponse } from '@suite/contract/core';
import type { LobbyStatus } from '@suite/contract';
import { ApiError, RetryLaterError } from '../../../lib/api-client';
import { fetchMeetingToken } from '../api/meeting-token';
import { watchLobbyStatus } from '../api/lobby';
import type { Identity } from '../lib/identity';

export type TokenState =
  | { name: 'connecting' }
  | { name: 'waiting' }
  /** Asked to join: no token until the host or a co-host lets them in (the decision is pushed). */
  | { name: 'lobby'; lobby: LobbyStatus }
  | { name: 'entering'; token: MeetingTokenResponse }
  | { name: 'ready'; token: MeetingTokenResponse }
  | { name: 'failed'; error: unknown };

/** Network failures (no answer, timeout, gateway errors) are tried again this many times before failing. */
const NETWORK_RETRIES = 3;
/** First wait after a network failure; doubled on each further try (2 s, 4 s, 8 s). */
const NETWORK_RETRY_BASE_MS = 2000;
/** A Retry-After longer than this is capped: the waiting room keeps asking at least this often. */
const MAX_RETRY_AFTER_MS = 60_000;

export type RetryStep =
  /** The host is not in yet: show 'waiting for host' and ask again. */
  | { kind: 'waiting'; ms: number }
  /** A passing problem (rate limit, network): keep the current screen and ask again. */
  | { kind: 'again'; ms: number }
  | { kind: 'fail' };

/**
 * What to do after a failed token request. `networkTries` counts consecutive network failures so far.
 * ERR_SESSION_NOT_STARTED → wait 5 s; 429 → wait Retry-After (else 5 s); no answer / timeout / 502–504 →
 * up to NETWORK_RETRIES more tries with a growing pause; anything else fails.
 */
export function retryStep(error: unknown, networkTries: number): RetryStep {
  if (!(error instanceof ApiError)) return { kind: 'fail' };
  if (error.code === 'ERR_SESSION_NOT_STARTED') return { kind: 'waiting', ms: WAITING_FOR_HOST_RETRY_MS };
  if (error.status === 429) {
    const after = error instanceof RetryLaterError ? error.retryAfterMs : null;
    return { kind: 'again', ms: Math.min(MAX_RETRY_AFTER_MS, Math.max(1000, after ?? WAITING_FOR_HOST_RETRY_MS)) };
  }
  const transient =
    error.status === 0 ||
    ((error.status === 502 || error.status === 503 || error.status === 504) &&
      error.code !== 'ERR_MEETINGS_NOT_CONFIGURED');
  if (transient && networkTries < NETWORK_RETRIES) {
    return { kind: 'again', ms: NETWORK_RETRY_BASE_MS * 2 ** networkTries };
  }
  return { kind: 'fail' };
}

/**
 * Spec §4: obtain the meeting token (user endpoint when signed in, guest endpoint otherwise); while the
 * host is not in (401 ERR_SESSION_NOT_STARTED) wait and ask again every 5 s, through rate limits and short
 * network failures (retryStep); with a token show 'entering' and join after 2 s.
 */
export function useMeetingToken(
  roomName: string,
  identity: Identity | null,
  attempt: number,
  displayName: string | null = null,
  invite: string | null = null,
): TokenState {
  const [state, setState] = useState<TokenState>({ name: 'connecting' });
  useEffect(() => {
    if (!identity) return;
    const controller = new AbortController();
    let timer = 0;
    let networkTries = 0;
    let unwatch: (() => void) | null = null;
    const stopWatching = () => {
      unwatch?.();
      unwatch = null;
    };
    const ask = async () => {
      try {
        const answer = await fetchMeetingToken(roomName, identity, displayName, controller.signal, invite);
        if (controller.signal.aborted) return;
        if ('lobby' in answer) {
          setState({ name: 'lobby', lobby: answer.lobby });
          // The decision comes pushed: admitted → ask again for the token; refused or ended → shown.
          unwatch ??= watchLobbyStatus(roomName, (lobby) => {
            if (controller.signal.aborted) return;
            if (lobby.status === 'admitted') {
              void ask();
              return;
            }
            if (lobby.status !== 'waiting') stopWatching();
            setState({ name: 'lobby', lobby });
          });
          return;
        }
        const { token } = answer;
        // Let in from the lobby: straight into the room (the admit-to-join budget is 1 s, p95); the
        // spec's 2 s of "entering" are for the host's arrival.
        if (unwatch) {
          stopWatching();
          setState({ name: 'ready', token });
          return;
        }
        setState({ name: 'entering', token });
        timer = window.setTimeout(() => setState({ name: 'ready', token }), MEET_JOIN_DELAY_MS);
      } catch (error) {
        if (controller.signal.aborted) return;
        const step = retryStep(error, networkTries);
        if (step.kind === 'fail') {
          setState({ name: 'failed', error });
          return;
        }
        if (step.kind === 'waiting') {
          networkTries = 0;
          setState({ name: 'waiting' });
        } else if (!(error instanceof ApiError && error.status === 429)) {
          networkTries += 1;
        }
        timer = window.setTimeout(() => void ask(), step.ms);
      }
    };
    setState({ name: 'connecting' });
    void ask();
    return () => {
      controller.abort();
      stopWatching();
      window.clearTimeout(timer);
    };
  }, [roomName, identity, attempt, displayName, invite]);
  return state;
}
