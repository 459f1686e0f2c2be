import { useEffect, useRef, useState } from 'react';

/** Was the person let in just now, after waiting for the host or in the lobby? (→ entering; pure, for the hook.) */
export function admittedNow(previous: string | null, next: string): boolean {
  return (previous === 'waiting' || previous === 'lobby') && (next === 'entering' || next === 'ready');
}

/**
 * A guest who waited for the host in another tab: when they are let in, a short chime (Web Audio, loaded
 * only then) and `text` at the start of the tab title until the tab is looked at again. Returns the
 * title's prefix (null: none).
 */
export function useAdmittedSignal(tokenState: string, text: string): string | null {
  const previous = useRef<string | null>(null);
  const [attention, setAttention] = useState<string | null>(null);

  useEffect(() => {
    const before = previous.current;
    previous.current = tokenState;
    if (!admittedNow(before, tokenState) || !document.hidden) return;
    setAttention(text);
    void import('../lib/beep').then(({ chime }) => chime());
  }, [tokenState, text]);

  useEffect(() => {
    if (!attention) return;
    const seen = () => {
      if (!document.hidden) setAttention(null);
    };
    document.addEventListener('visibilitychange', seen);
    return () => document.removeEventListener('visibilitychange', seen);
  }, [attention]);

  return attention;
}
