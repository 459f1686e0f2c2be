import { useCallback, useEffect, useRef, useState } from 'react';
import { KEEP_ALIVE_COUNTDOWN_S } from '@suite/contract/core';
import { KEEP_ALIVE_IDLE_MS } from '../lib/timings';

/**
 * Keep-alive (spec §4): after a while alone in the room, ask whether to keep the conference open with a
 * countdown in seconds; no answer → onExpire (the page disconnects). `keep` restarts the idle wait.
 * `alone` comes from lib/presence.ts, attached when the IFrame API object is built.
 */
export function useKeepAlive(joined: boolean, alone: boolean, onExpire: () => void, onKeep: () => void) {
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const [round, setRound] = useState(0);
  const expireRef = useRef(onExpire);
  expireRef.current = onExpire;

  // Someone arriving while the prompt is up answers it: nobody is alone any more.
  useEffect(() => {
    if (!alone) setSecondsLeft(null);
  }, [alone]);

  // Alone for the idle time → prompt. Someone arriving before that cancels the wait.
  useEffect(() => {
    if (!joined || !alone || secondsLeft !== null) return;
    const timer = window.setTimeout(() => setSecondsLeft(KEEP_ALIVE_COUNTDOWN_S), KEEP_ALIVE_IDLE_MS);
    return () => window.clearTimeout(timer);
  }, [joined, alone, secondsLeft, round]);

  // The countdown runs against a deadline, so a throttled background tab still disconnects on time.
  const prompting = secondsLeft !== null;
  useEffect(() => {
    if (!prompting) return;
    const deadline = Date.now() + KEEP_ALIVE_COUNTDOWN_S * 1000;
    const timer = window.setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      if (left > 0) {
        setSecondsLeft(left);
        return;
      }
      window.clearInterval(timer);
      setSecondsLeft(null);
      expireRef.current();
    }, 1000);
    return () => window.clearInterval(timer);
  }, [prompting]);

  const keep = useCallback(() => {
    setSecondsLeft(null);
    setRound((r) => r + 1);
    onKeep();
  }, [onKeep]);

  return { secondsLeft, keep };
}
