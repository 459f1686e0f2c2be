import { useEffect, useState } from 'react';
import { PROGRESS_ACTION_AT, PROGRESS_DONE, PROGRESS_INTERVAL_MS, PROGRESS_STEP } from '@suite/contract/core';
import { ApiError } from '../../../lib/api-client';
import { DEFAULT_LINK_ERROR, LINK_ERROR_CODES, validateLink, type LinkInfo } from '../api/validate-link';

export type FileLinkState =
  | { status: 'processing'; progress: number }
  | { status: 'validated'; progress: number; file: LinkInfo }
  | { status: 'error'; progress: number; code: string };

function errorCode(error: unknown): string {
  const code = error instanceof ApiError ? error.code : '';
  return (LINK_ERROR_CODES as readonly string[]).includes(code) ? code : DEFAULT_LINK_ERROR;
}

/**
 * Spec §4: progress grows by 10 every 500 ms up to 30, then the link is validated; success jumps to
 * 100, a failure keeps the server's error_code (or the default one).
 */
export function useFileLink(fileId: string, shareKey: string): FileLinkState {
  const [state, setState] = useState<FileLinkState>({ status: 'processing', progress: 0 });
  const reachedAction = state.status === 'processing' && state.progress >= PROGRESS_ACTION_AT;

  useEffect(() => {
    if (state.status !== 'processing' || reachedAction) return;
    const timer = window.setTimeout(
      () =>
        setState((s) =>
          s.status === 'processing' ? { ...s, progress: Math.min(PROGRESS_ACTION_AT, s.progress + PROGRESS_STEP) } : s,
        ),
      PROGRESS_INTERVAL_MS,
    );
    return () => window.clearTimeout(timer);
  }, [state, reachedAction]);

  useEffect(() => {
    if (!reachedAction) return;
    const controller = new AbortController();
    validateLink(fileId, shareKey, controller.signal).then(
      (file) => setState({ status: 'validated', progress: PROGRESS_DONE, file }),
      (error: unknown) => {
        if (!controller.signal.aborted)
          setState({ status: 'error', progress: PROGRESS_ACTION_AT, code: errorCode(error) });
      },
    );
    return () => controller.abort();
  }, [reachedAction, fileId, shareKey]);

  return state;
}
