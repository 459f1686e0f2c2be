/**
 * `useTranslation` for the app's texts (lib/i18n.ts), the app's own hook (imported by its own path).
 * Shaped like react-i18next's: `t` is bound to the first namespace (others via `ns:key`), every listed
 * namespace is loaded first (suspending, or `ready: false` with `useSuspense: false`), and a language
 * change re-renders with a new `t`.
 */
import { useEffect, useMemo, useReducer, useSyncExternalStore } from 'react';
import type { Language } from '@suite/contract/core';
import { changeLanguage, currentLanguage, fixedT, hasTexts, loadTexts, subscribe, type TFunction } from './i18n';

export type { TFunction };

export interface UseTranslationResponse {
  t: TFunction;
  i18n: { language: string; resolvedLanguage: string; changeLanguage: (lng: Language) => Promise<void> };
  ready: boolean;
}

/** How long after a non-suspending component shows its texts start loading. */
const AFTER_PAINT_MS = 300;

/** One promise per language and namespace list, so that a suspended render finds the same one again. */
const pending = new Map<string, Promise<unknown>>();
function loadAll(language: string, namespaces: readonly string[]): Promise<unknown> {
  const id = `${language}:${namespaces.join(',')}`;
  let promise = pending.get(id);
  if (!promise) {
    promise = Promise.all(namespaces.map((n) => loadTexts(language, n)));
    pending.set(id, promise);
    promise.then(
      () => pending.delete(id),
      () => pending.delete(id),
    );
  }
  return promise;
}

export function useTranslation(
  ns: string | readonly string[] = 'common',
  options: { useSuspense?: boolean } = {},
): UseTranslationResponse {
  const language = useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  const namespaces = typeof ns === 'string' ? [ns] : ns;
  const key = namespaces.join(',');
  const ready = namespaces.every((n) => hasTexts(language, n));
  const suspend = options.useSuspense !== false;
  // As react-i18next does: the pending load is thrown to the nearest Suspense boundary.
  if (!ready && suspend) throw loadAll(language, namespaces);
  // Without Suspense: render now with ready false, again once the texts are in. They are not needed
  // for the first paint, so they load just after it (not competing with what the screen needs).
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (ready || suspend) return;
    let current = true;
    const timer = window.setTimeout(
      () => void loadAll(language, key.split(',')).then(() => current && rerender()),
      AFTER_PAINT_MS,
    );
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [ready, suspend, language, key]);
  const t = useMemo(() => fixedT(language, key.split(',')[0] || 'common'), [language, key]);
  const i18n = useMemo(() => ({ language, resolvedLanguage: language, changeLanguage }), [language]);
  return { t, i18n, ready };
}
