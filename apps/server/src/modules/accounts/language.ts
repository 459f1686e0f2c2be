import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@suite/contract';

/** The UI language sent in the body wins; then the first Accept-Language entry we have; then English. */
export function pickLanguage(bodyLanguage: Language | undefined, acceptLanguage: string | undefined): Language {
  if (bodyLanguage) return bodyLanguage;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { base: tag.toLowerCase().split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((e) => e.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const hit = ranked.find((e) => (LANGUAGES as readonly string[]).includes(e.base));
  return (hit?.base as Language | undefined) ?? DEFAULT_LANGUAGE;
}
