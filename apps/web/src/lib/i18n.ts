import i18next from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_TAGS, STORAGE_KEYS, type Language } from '@suite/contract/core';
import { setApiLanguage } from './api-client';

/**
 * Spec §1: the language comes from the browser (pt* → pt-BR), falling back to English; es, hi and it
 * are matched by prefix too. A choice made in the footer switcher is remembered.
 */
export function detectLanguage(
  candidates: readonly string[] = navigator.languages?.length ? navigator.languages : [navigator.language],
): Language {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEYS.language);
  } catch {
    stored = null;
  }
  if (stored && (LANGUAGES as readonly string[]).includes(stored)) return stored as Language;
  const first = (candidates[0] ?? '').toLowerCase();
  const prefix = first.split('-')[0] ?? '';
  return (LANGUAGES as readonly string[]).includes(prefix) ? (prefix as Language) : DEFAULT_LANGUAGE;
}

const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json');

function applyLanguage(language: Language): void {
  const tag = LANGUAGE_TAGS[language];
  document.documentElement.lang = tag;
  setApiLanguage(tag);
}

export async function initI18n(language: Language = detectLanguage()): Promise<typeof i18next> {
  applyLanguage(language);
  await i18next
    .use(
      resourcesToBackend((lng: string, ns: string) => {
        const load = loaders[`../locales/${lng}/${ns}.json`];
        return load ? load().then((m) => m.default) : Promise.resolve({});
      }),
    )
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: ['common'],
      defaultNS: 'common',
      fallbackNS: 'common',
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
      returnNull: false,
    });
  i18next.on('languageChanged', (lng) => applyLanguage(lng as Language));
  return i18next;
}

export async function changeLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEYS.language, language);
  } catch {
    // ignore
  }
  await i18next.changeLanguage(language);
}
