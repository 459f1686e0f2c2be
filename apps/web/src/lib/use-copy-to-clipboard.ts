import { useCallback, useEffect, useRef, useState } from 'react';

/** idle: nothing copied yet; copied: in the clipboard; manual: the clipboard was refused, the user copies. */
export type CopyStatus = 'idle' | 'copied' | 'manual';

/**
 * Copies a text and tells how it went. When the clipboard is refused, `onRefused` lets the user copy by
 * hand (select the field, or show the text). With `resetMs`, 'copied' goes back to 'idle' after that long.
 */
export function useCopyToClipboard(resetMs?: number) {
  const [status, setStatus] = useState<CopyStatus>('idle');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = useCallback(
    async (text: string, onRefused?: () => void) => {
      window.clearTimeout(timer.current);
      try {
        await navigator.clipboard.writeText(text);
        setStatus('copied');
        if (resetMs !== undefined) timer.current = window.setTimeout(() => setStatus('idle'), resetMs);
      } catch {
        onRefused?.();
        setStatus('manual');
      }
    },
    [resetMs],
  );
  return { status, copy };
}
