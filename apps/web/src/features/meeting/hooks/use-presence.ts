import { useEffect, useRef } from 'react';
import { PRESENCE_HEARTBEAT_S } from '@suite/contract/core';
import { ApiError } from '../../../lib/api-client';
import { logger } from '../../../lib/logger';

/** What the room page does to be counted in the room (api/presence.ts, bound to the room and the proof). */
export interface PresenceReport {
  beat: () => Promise<void>;
  leave: () => void;
}

/** Answers after which beating again cannot help (refused proof, unknown or ended room). */
const FINAL_STATUSES = new Set([400, 401, 403, 404]);

/**
 * While `active` (joined, from videoConferenceJoined until leaving), tells our server every
 * PRESENCE_HEARTBEAT_S that this person is in the room, so that the pre-join of the next one says
 * "Ada is here". Leaving (hangup, the room closing, the page going away) says goodbye at once; a page that
 * vanishes without one is forgotten by the server after PRESENCE_TTL_S. A failed beat (server or Redis
 * down: 503) is simply tried again at the next one; a refused one stops the beats.
 */
export function usePresence(active: boolean, report: PresenceReport | null): void {
  const reportRef = useRef(report);
  reportRef.current = report;
  const enabled = active && report !== null;
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let here = false;
    const beat = () => {
      if (stopped) return;
      here = true;
      reportRef.current?.beat().catch((error: unknown) => {
        if (error instanceof ApiError && FINAL_STATUSES.has(error.status)) stop();
        else logger.warn('presence heartbeat failed', { error: String(error) });
      });
    };
    const goodbye = () => {
      if (!here) return;
      here = false;
      reportRef.current?.leave();
    };
    // A page restored from the back/forward cache after its goodbye is counted again at the next beat.
    const timer = window.setInterval(beat, PRESENCE_HEARTBEAT_S * 1000);
    function stop() {
      stopped = true;
      window.clearInterval(timer);
    }
    window.addEventListener('pagehide', goodbye);
    beat();
    return () => {
      stop();
      goodbye();
      window.removeEventListener('pagehide', goodbye);
    };
  }, [enabled]);
}
