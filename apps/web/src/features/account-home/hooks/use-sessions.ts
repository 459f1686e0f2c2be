import { useCallback, useEffect, useState } from 'react';
import type { ActiveSession } from '@suite/contract/core';
import { listSessions } from '../api/sessions';

export type SessionsState =
  { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; sessions: ActiveSession[] };

/** The user's active sessions, this device's first, kept in step with the sign-outs made on this page. */
export function useSessions() {
  const [state, setState] = useState<SessionsState>({ status: 'loading' });
  const reload = useCallback(() => {
    setState({ status: 'loading' });
    listSessions().then(
      (sessions) =>
        setState({
          status: 'ready',
          sessions: [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)],
        }),
      (error: unknown) => setState({ status: 'error', error }),
    );
  }, []);
  useEffect(reload, [reload]);
  const removed = useCallback(
    (id: string) =>
      setState((s) => (s.status === 'ready' ? { ...s, sessions: s.sessions.filter((x) => x._id !== id) } : s)),
    [],
  );
  return { state, reload, removed };
}

/** Every minute: relative times ("5 minutes ago") stay true on a page left open. */
export function useNow(everyMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
