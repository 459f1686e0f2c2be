import { matchLanguage, rankAcceptLanguage, type Language } from '@suite/contract';

/** The UI language sent in the body wins; then the Accept-Language ranking the web app uses too. */
export function pickLanguage(bodyLanguage: Language | undefined, acceptLanguage: string | undefined): Language {
  return bodyLanguage ?? matchLanguage(rankAcceptLanguage(acceptLanguage));
}

/** The language of mail about an account (security notices): the one given, else the account's own. */
export const userLanguage = (user: { language: string }, given?: Language): Language =>
  given ?? matchLanguage([user.language]);
