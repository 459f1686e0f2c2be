/**
 * Runs `run` at the browser's first idle moment after now (at the latest after `timeoutMs`): for what a
 * screen does not need for its first paint and should not compete with it (passkey autofill, the
 * browser check). Safari has no requestIdleCallback: the next task then. Returns the cancel function.
 */
export function whenIdle(run: () => void, timeoutMs = 1000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(run, 0);
  return () => window.clearTimeout(handle);
}
