import { useEffect, useRef } from 'react';
import type { SessionPingResponse } from '@suite/contract/core';
import { logger } from '../../../lib/logger';

/** Until the server says otherwise (its answer carries the interval), and after a failed ping. */
const DEFAULT_PING_INTERVAL_MS = 5 * 60_000;
export const FAILED_PING_RETRY_MS = 60_000;

/**
 * While joined, tells our server every few minutes that someone is in the room, so that a long meeting's
 * session does not reach MEETING_IDLE_MINUTES (newcomers would be told to wait for a host who is there).
 * The server answers with the interval to use, always inside its idle limit.
 */
export function useSessionPing(active: boolean, ping: (() => Promise<SessionPingResponse>) | null): void {
  const pingRef = useRef(ping);
  pingRef.current = ping;
  const enabled = active && ping !== null;
  useEffect(() => {
    if (!enabled) return;
    let timer = 0;
    let stopped = false;
    const run = async () => {
      let next = DEFAULT_PING_INTERVAL_MS;
      try {
        const answer = await pingRef.current?.();
        if (answer) next = answer.ping_interval_s * 1000;
      } catch (error) {
        logger.warn('meeting session ping failed', { error: String(error) });
        next = FAILED_PING_RETRY_MS;
      }
      if (!stopped) timer = window.setTimeout(() => void run(), next);
    };
    void run();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [enabled]);
}
