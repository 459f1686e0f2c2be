import { useCallback, useEffect, useRef, useState } from 'react';
import { KEEP_ALIVE_COUNTDOWN_S } from '@suite/contract/core';
import type { JitsiApi } from '../lib/external-api';
import { KEEP_ALIVE_IDLE_MS } from '../lib/timings';

/**
 * Keep-alive (spec §4): after a while alone in the room, ask whether to keep the conference open with a
 * countdown in seconds; no answer → onExpire (the page disconnects). `keep` restarts the idle wait.
 */
export function useKeepAlive(api: JitsiApi | null, joined: boolean, onExpire: () => void, onKeep: () => void) {
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const [round, setRound] = useState(0);
  const others = useRef(new Set<string>());
  const [alone, setAlone] = useState(true);
  const expireRef = useRef(onExpire);
  expireRef.current = onExpire;

  useEffect(() => {
    if (!api || !joined) return;
    const joinedOne = (p: { id?: string }) => {
      if (p?.id) others.current.add(p.id);
      setAlone(others.current.size === 0);
    };
    const leftOne = (p: { id?: string }) => {
      if (p?.id) others.current.delete(p.id);
      setAlone(others.current.size === 0);
    };
    api.on('participantJoined', joinedOne);
    api.on('participantLeft', leftOne);
    return () => {
      api.off?.('participantJoined', joinedOne);
      api.off?.('participantLeft', leftOne);
    };
  }, [api, joined]);

  // Alone for the idle time → prompt. Someone arriving before that cancels the wait.
  useEffect(() => {
    if (!joined || !alone || secondsLeft !== null) return;
    const timer = window.setTimeout(() => setSecondsLeft(KEEP_ALIVE_COUNTDOWN_S), KEEP_ALIVE_IDLE_MS);
    return () => window.clearTimeout(timer);
  }, [joined, alone, secondsLeft, round]);

  useEffect(() => {
    if (secondsLeft === null) return;
    if (secondsLeft <= 0) {
      setSecondsLeft(null);
      expireRef.current();
      return;
    }
    const timer = window.setTimeout(() => setSecondsLeft((s) => (s === null ? null : s - 1)), 1000);
    return () => window.clearTimeout(timer);
  }, [secondsLeft]);

  const keep = useCallback(() => {
    setSecondsLeft(null);
    setRound((r) => r + 1);
    onKeep();
  }, [onKeep]);

  return { secondsLeft, keep };
}
