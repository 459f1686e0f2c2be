import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './constants.js';

/**
 * The one language choice of the web and the server: the first entry of the user's preference list whose
 * primary subtag is a language we have (pt-BR → pt, es-419 → es), else English. The web passes
 * `navigator.languages`, the server the ranked Accept-Language entries: a browser sending
 * `de-DE, pt-BR` gets Portuguese screens and Portuguese mail alike.
 */
export function matchLanguage(preferences: readonly string[]): Language {
  for (const tag of preferences) {
    const base = tag.trim().toLowerCase().split('-')[0] ?? '';
    if ((LANGUAGES as readonly string[]).includes(base)) return base as Language;
  }
  return DEFAULT_LANGUAGE;
}

/** An Accept-Language header's tags, most preferred first (by q, then in the order sent; q=0 dropped). */
export function rankAcceptLanguage(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((e) => e.q > 0 && e.tag)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((e) => e.tag);
}
