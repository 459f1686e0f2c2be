import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  LANGUAGE_TAGS,
  STORAGE_KEYS,
  matchLanguage,
  type Language,
} from '@suite/contract/core';
import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { setApiLanguage } from './api-client';

/**
 * The interface texts, with Lingui (@lingui/core): one catalog per namespace per language, compiled at
 * build from src/locales/<lang>/<ns>.json (build/lingui-catalogs.ts), each its own chunk, loaded when a
 * screen first needs it — only in the current language (scripts/check-locales keeps every language's
 * keys the same, so there is nothing to fall back to). Lingui interpolates (unescaped: React escapes)
 * and picks ICU plural forms by Intl.PluralRules; this module adds the app's `ns:key` prefixes, the
 * fallback namespace 'common' and `defaultValue`. React binding: i18n-react.tsx.
 */

/**
 * Spec §1: the language comes from the browser's preference list, ranked as the server ranks
 * Accept-Language (matchLanguage: the first entry we have, pt-BR → pt; else English). A choice made in
 * the footer switcher is remembered and wins.
 */
export function detectLanguage(
  candidates: readonly string[] = navigator.languages?.length ? navigator.languages : [navigator.language],
): Language {
  return storedLanguage() ?? matchLanguage(candidates);
}

/** The language chosen in the footer switcher, if any. */
export function storedLanguage(): Language | null {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEYS.language);
  } catch {
    stored = null;
  }
  return stored && (LANGUAGES as readonly string[]).includes(stored) ? (stored as Language) : null;
}

/** A compiled catalog: message id (`<ns>:<dotted.key>`) → message as Lingui's compiler wrote it. */
type Catalog = Messages;
// Named once: the build writes the define's whole value at each use.
const LOCALES = __LOCALES__;
const NAMESPACES = new Set(LOCALES.namespaces);

/**
 * One namespace's compiled catalog in one language. The browser build fetches the file the build wrote
 * for it (assets/<ns>-<lang>-<version>.json, build/lingui-catalogs.ts): a name computed here, not a map
 * of every file in every first load. The dev server, the tests and the prerender import the JSON itself
 * (compiled by the same plugin); that branch is not in the browser build.
 */
function fetchCatalog(lng: string, ns: string): Promise<Catalog> {
  if (import.meta.env.DEV || import.meta.env.SSR) {
    const load = import.meta.glob<{ default: Catalog }>('../locales/*/*.json')[`../locales/${lng}/${ns}.json`];
    return load ? load().then((m) => m.default) : Promise.resolve({});
  }
  return fetch(`${import.meta.env.BASE_URL}assets/${ns}-${lng}-${LOCALES.version}.json`).then((response) => {
    if (!response.ok) throw new Error(`texts ${lng}/${ns}: HTTP ${response.status}`);
    return response.json() as Promise<Catalog>;
  });
}

const FALLBACK_NS = 'common';
/** One Lingui instance per language, each with the namespaces of that language loaded so far. */
const catalogs = new Map<string, I18n>();
const loaded = new Set<string>();
const loading = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();
let language: Language = DEFAULT_LANGUAGE;
/** Namespaces asked for so far: a language change loads them all before it shows. */
const used = new Set<string>([FALLBACK_NS]);

function catalogOf(lng: string): I18n {
  let i18n = catalogs.get(lng);
  if (!i18n) {
    // Plural rules and formats by the full tag (pt-BR), as the browser's Intl knows it.
    i18n = setupI18n({ locale: lng, locales: [LANGUAGE_TAGS[lng as Language] ?? lng], messages: { [lng]: {} } });
    catalogs.set(lng, i18n);
  }
  return i18n;
}

export const currentLanguage = (): Language => language;
export const hasTexts = (lng: string, ns: string): boolean => loaded.has(`${lng}/${ns}`);

/** Loads one namespace of one language (once); resolves when it is in. */
export function loadTexts(lng: string, ns: string): Promise<void> {
  used.add(ns);
  const id = `${lng}/${ns}`;
  let promise = loading.get(id);
  if (!promise) {
    promise = (NAMESPACES.has(ns) ? fetchCatalog(lng, ns) : Promise.resolve({})).then((catalog) => {
      catalogOf(lng).load(lng, catalog);
      loaded.add(id);
    });
    promise.catch(() => loading.delete(id));
    loading.set(id, promise);
  }
  return promise;
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export type TOptions = Record<string, unknown> & { count?: number; defaultValue?: string; ns?: string };
export type TFunction = (key: string, options?: TOptions) => string;

/** `{{var}}` in a default text given in code (catalog texts are compiled: Lingui interpolates those). */
const interpolate = (text: string, values: TOptions) =>
  text.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (match, name: string) =>
    values[name] === undefined || values[name] === null ? match : String(values[name]),
  );

/**
 * A translation function for one language and namespace: `key` (nested keys dotted) in the namespace,
 * then in 'common'; `ns:key` names another namespace; `count` picks the ICU plural form; the key itself
 * (or `defaultValue`) when no catalog has it.
 */
export function fixedT(lng: string, ns: string): TFunction {
  return (fullKey, options = {}) => {
    let namespace = options.ns ?? ns;
    let key = fullKey;
    const colon = fullKey.indexOf(':');
    if (colon > 0 && NAMESPACES.has(fullKey.slice(0, colon))) {
      namespace = fullKey.slice(0, colon);
      key = fullKey.slice(colon + 1);
    }
    const i18n = catalogOf(lng);
    for (const n of namespace === FALLBACK_NS ? [namespace] : [namespace, FALLBACK_NS]) {
      const id = `${n}:${key}`;
      if (i18n.messages[id] !== undefined) return i18n._(id, options);
    }
    return options.defaultValue !== undefined ? interpolate(options.defaultValue, options) : key;
  };
}

function applyLanguage(lng: Language): void {
  document.documentElement.lang = LANGUAGE_TAGS[lng];
  setApiLanguage(LANGUAGE_TAGS[lng]);
}

/** Sets the language and loads its common texts (the frame's) before the first render. */
export async function initI18n(lng: Language = detectLanguage()): Promise<void> {
  language = lng;
  applyLanguage(lng);
  await loadTexts(lng, FALLBACK_NS);
  for (const listener of listeners) listener();
}

/** The footer's switch: remembered, every namespace in use loaded in the new language, then shown. */
export async function changeLanguage(lng: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEYS.language, lng);
  } catch {
    // ignore
  }
  await Promise.all([...used].map((ns) => loadTexts(lng, ns)));
  language = lng;
  applyLanguage(lng);
  for (const listener of listeners) listener();
}
