import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  LANGUAGE_TAGS,
  STORAGE_KEYS,
  matchLanguage,
  type Language,
} from '@suite/contract/core';
import { setApiLanguage } from './api-client';

/**
 * The interface texts: one JSON per namespace per language (src/locales/<lang>/<ns>.json), each its
 * own chunk, loaded when a screen first needs it — only in the current language (scripts/check-locales
 * keeps every language's keys the same, so there is nothing to fall back to). What i18next did for the
 * app, in a few hundred bytes: `ns:key` prefixes, nested `a.b` keys, plurals (`key_one`/`key_other`
 * by Intl.PluralRules, `key_zero` for 0 when present), `{{var}}` interpolation (unescaped: React
 * escapes), `defaultValue`, and the fallback namespace 'common'. React binding: i18n-react.tsx.
 */

/**
 * Spec §1: the language comes from the browser's preference list, ranked as the server ranks
 * Accept-Language (matchLanguage: the first entry we have, pt-BR → pt; else English). A choice made in
 * the footer switcher is remembered and wins.
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
  return matchLanguage(candidates);
}

type Texts = Record<string, unknown>;
const loaders = import.meta.glob<{ default: Texts }>('../locales/*/*.json');

const FALLBACK_NS = 'common';
const texts = new Map<string, Texts>();
const loading = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();
let language: Language = DEFAULT_LANGUAGE;
/** Namespaces asked for so far: a language change loads them all before it shows. */
const used = new Set<string>([FALLBACK_NS]);

export const currentLanguage = (): Language => language;
export const hasTexts = (lng: string, ns: string): boolean => texts.has(`${lng}/${ns}`);

/** Loads one namespace of one language (once); resolves when it is in. */
export function loadTexts(lng: string, ns: string): Promise<void> {
  used.add(ns);
  const id = `${lng}/${ns}`;
  let promise = loading.get(id);
  if (!promise) {
    const load = loaders[`../locales/${id}.json`];
    promise = (load ? load().then((m) => m.default) : Promise.resolve({})).then((t) => void texts.set(id, t));
    promise.catch(() => loading.delete(id));
    loading.set(id, promise);
  }
  return promise;
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function lookup(lng: string, ns: string, key: string): string | undefined {
  let node: unknown = texts.get(`${lng}/${ns}`);
  if (node === undefined) return undefined;
  if (typeof (node as Texts)[key] === 'string') return (node as Texts)[key] as string;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Texts)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export type TOptions = Record<string, unknown> & { count?: number; defaultValue?: string; ns?: string };
export type TFunction = (key: string, options?: TOptions) => string;

const interpolate = (text: string, values: TOptions) =>
  text.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (match, name: string) =>
    values[name] === undefined || values[name] === null ? match : String(values[name]),
  );

/** A translation function for one language and namespace (the fallback namespace after it). */
export function fixedT(lng: string, ns: string): TFunction {
  return (fullKey, options = {}) => {
    let namespace = options.ns ?? ns;
    let key = fullKey;
    const colon = fullKey.indexOf(':');
    if (colon > 0 && loaders[`../locales/${lng}/${fullKey.slice(0, colon)}.json`]) {
      namespace = fullKey.slice(0, colon);
      key = fullKey.slice(colon + 1);
    }
    const keys = [key];
    if (typeof options.count === 'number') {
      const plural = `${key}_${new Intl.PluralRules(LANGUAGE_TAGS[lng as Language] ?? lng).select(options.count)}`;
      keys.unshift(...(options.count === 0 ? [`${key}_zero`, plural] : [plural]));
    }
    for (const n of namespace === FALLBACK_NS ? [namespace] : [namespace, FALLBACK_NS]) {
      for (const k of keys) {
        const text = lookup(lng, n, k);
        if (text !== undefined) return interpolate(text, options);
      }
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
