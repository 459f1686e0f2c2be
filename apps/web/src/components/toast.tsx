import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from '../lib/i18n-react';
import './ui.css';

/** How long a toast stays before it goes by itself. */
const TOAST_MS = 6000;

/**
 * One short confirmation that outlives the screen that caused it ("2 invitations sent" on the home the
 * teammates step went on to). The live region is always in the page (no status role: it is not a screen's message), so screen readers announce what enters it.
 */
let current: { message: string; id: number } | null = null;
const listeners = new Set<() => void>();

function publish(next: typeof current): void {
  current = next;
  for (const listener of listeners) listener();
}

/** Shows `message` in the toast region (replacing one already there). */
export function showToast(message: string): void {
  publish({ message, id: (current?.id ?? 0) + 1 });
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The toast region, rendered once at the app's root. */
export function Toaster() {
  const { t } = useTranslation('common');
  const toast = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => publish(null), TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [toast]);
  return (
    <div className="toast-region" aria-live="polite" aria-atomic="true">
      {toast ? (
        <div className="toast" key={toast.id}>
          <span>{toast.message}</span>
          <button type="button" className="toast__close" aria-label={t('actions.close')} onClick={() => publish(null)}>
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
