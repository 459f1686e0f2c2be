import { useEffect, useRef } from 'react';
import { RECORDING_RETRY_AT_MS, RECORDING_START_DELAY_MS } from '@suite/contract/core';
import type { JitsiApi } from '../lib/external-api';
import { RECORDING_GIVE_UP_AT_MS } from '../lib/timings';

/**
 * Spec §4 recording: start (mode file) 3 s after joining; at 120 s start once more unless a
 * recordingStatusChanged event has been seen; if recording still has not started, report failure.
 */
export function useAutoRecording(api: JitsiApi | null, active: boolean, onFail: () => void): void {
  const failRef = useRef(onFail);
  failRef.current = onFail;
  useEffect(() => {
    if (!api || !active) return;
    let started = false;
    let failed = false;
    const start = () => api.executeCommand('startRecording', { mode: 'file' });
    const fail = () => {
      if (started || failed) return;
      failed = true;
      failRef.current();
    };
    const first = window.setTimeout(start, RECORDING_START_DELAY_MS);
    const retry = window.setTimeout(start, RECORDING_RETRY_AT_MS);
    const giveUp = window.setTimeout(fail, RECORDING_GIVE_UP_AT_MS);
    const onStatus = (status: { on?: boolean; mode?: string; error?: string } | undefined) => {
      // Any status event means the recorder answered: no blind retry any more.
      window.clearTimeout(retry);
      if (status?.on) {
        started = true;
        window.clearTimeout(giveUp);
      } else if (status?.error) {
        window.clearTimeout(giveUp);
        fail();
      }
    };
    api.on('recordingStatusChanged', onStatus);
    return () => {
      window.clearTimeout(first);
      window.clearTimeout(retry);
      window.clearTimeout(giveUp);
      api.off?.('recordingStatusChanged', onStatus);
    };
  }, [api, active]);
}
