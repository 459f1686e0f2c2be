import { useCallback, useEffect, useRef, useState } from 'react';

export interface Page<T> {
  items: T[];
  next: string | null;
}

export type PagedState<T> =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; items: T[]; next: string | null; loadingMore: boolean; moreError: unknown };

/**
 * A keyset-paged list (people, audit events, requests): the first page whenever `fetchPage` changes (a
 * new search or filter), "Show more" appends the next one. An answer to an older query is dropped, so a
 * quick second search never shows the first one's rows.
 */
export function usePaged<T>(fetchPage: (cursor?: string) => Promise<Page<T>>) {
  const [state, setState] = useState<PagedState<T>>({ status: 'loading' });
  const ticket = useRef(0);
  const reload = useCallback(() => {
    const mine = ++ticket.current;
    setState({ status: 'loading' });
    fetchPage().then(
      (page) =>
        mine === ticket.current &&
        setState({ status: 'ready', items: page.items, next: page.next, loadingMore: false, moreError: null }),
      (error: unknown) => mine === ticket.current && setState({ status: 'error', error }),
    );
  }, [fetchPage]);
  useEffect(reload, [reload]);

  const more = useCallback(() => {
    if (state.status !== 'ready' || !state.next || state.loadingMore) return;
    const mine = ticket.current;
    const cursor = state.next;
    setState({ ...state, loadingMore: true, moreError: null });
    fetchPage(cursor).then(
      (page) =>
        mine === ticket.current &&
        setState((s) =>
          s.status === 'ready' ? { ...s, items: [...s.items, ...page.items], next: page.next, loadingMore: false } : s,
        ),
      (error: unknown) =>
        mine === ticket.current &&
        setState((s) => (s.status === 'ready' ? { ...s, loadingMore: false, moreError: error } : s)),
    );
  }, [state, fetchPage]);

  /** Puts a changed item in place (an action's answer), or drops it when `next` is null. */
  const update = useCallback((match: (item: T) => boolean, next: T | null) => {
    setState((s) =>
      s.status === 'ready'
        ? {
            ...s,
            items: next === null ? s.items.filter((i) => !match(i)) : s.items.map((i) => (match(i) ? next : i)),
          }
        : s,
    );
  }, []);

  return { state, reload, more, update };
}
