/**
 * The app's navigation on top of wouter (https://github.com/molefrog/wouter): wouter matches paths,
 * renders routes and links; this adds what the screens need beyond it. Every history entry the app
 * writes carries `{ app: true, usr: <state> }` (markAppEntry, the Router's aroundNav), so a screen can
 * tell the first page of a visit (a link from a mail, a reload of a first page) from one it was
 * navigated to, and read the state a link or navigate() gave it (useEntryState).
 */
import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

interface AppEntry {
  app: true;
  usr: unknown;
}

const isAppEntry = (state: unknown): state is AppEntry =>
  typeof state === 'object' && state !== null && (state as Partial<AppEntry>).app === true;

/** wouter's aroundNav: the entry written is marked as the app's, its state kept under `usr`. */
export function markAppEntry(
  navigate: (to: string, options?: NavigateOptions) => void,
  to: string,
  options: NavigateOptions = {},
): void {
  navigate(to, { ...options, state: { app: true, usr: options.state ?? null } satisfies AppEntry });
}

/** false on the first page of a visit: no page of the app to go back to (history.length counts other sites). */
export const isFirstEntry = (): boolean => !isAppEntry(window.history.state);

/** The state the navigation to this entry gave (null when none). */
export function useEntryState<T>(): T | null {
  const state: unknown = useHistoryState();
  return isAppEntry(state) ? (state.usr as T | null) : null;
}

/** wouter's navigate, plus a number to move in the history (-1: back). */
export function useNavigate(): (to: string | number, options?: NavigateOptions) => void {
  const [, navigate] = useLocation();
  return useCallback(
    (to: string | number, options?: NavigateOptions) => {
      if (typeof to === 'number') window.history.go(to);
      else navigate(to, options);
    },
    [navigate],
  );
}

/** The current address within the app: path and query (for a `from` that brings the user back). */
export function useHere(): string {
  const [pathname] = useLocation();
  const search = useSearch();
  return search ? `${pathname}?${search}` : pathname;
}
