import { lazy, Suspense, useSyncExternalStore } from 'react';
import './ui.css';

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

const ToastView = lazy(() => import('./toast-view'));
const close = () => publish(null);

/**
 * The toast region, rendered once at the app's root: always in the page (a live region must be there
 * before what it announces); what shows in it loads with the first toast.
 */
export function Toaster() {
  const toast = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  return (
    <div className="toast-region" aria-live="polite" aria-atomic="true">
      {toast ? (
        <Suspense fallback={null}>
          <ToastView key={toast.id} message={toast.message} onClose={close} />
        </Suspense>
      ) : null}
    </div>
  );
}
