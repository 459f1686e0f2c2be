import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One pair of words for signing in and out in each language: the screens said "Log in",
 * "Sign in" and "Sign out" side by side. Each language keeps its pair; the other words do not come back.
 */
const OTHER_WORDS: Record<string, RegExp> = {
  en: /\blog ?(in|out)\b|\blogin\b|\blogout\b/i, // Sign in / Sign out
  pt: /desconect|fa(ça|zer) login|logout/i, // Entrar / Sair
  es: /\bacceder|desconect/i, // Iniciar sesión / Cerrar sesión
  it: /disconnett|login\b|logout/i, // Accedi / Esci
  hi: /लॉग/, // साइन इन / साइन आउट
};

const LOCALES = join(__dirname, '..', 'locales');

function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(texts);
  return [];
}

describe('sign-in vocabulary', () => {
  for (const [lang, other] of Object.entries(OTHER_WORDS)) {
    it(`${lang}: one pair of words for signing in and out`, () => {
      const found = readdirSync(join(LOCALES, lang))
        // A meeting's "leave" and "disconnected" are about the call, not the account.
        .filter((file) => file.endsWith('.json') && file !== 'meeting.json')
        .flatMap((file) =>
          texts(JSON.parse(readFileSync(join(LOCALES, lang, file), 'utf8'))).map((t) => `${file}: ${t}`),
        )
        .filter((line) => other.test(line.slice(line.indexOf(': ') + 2)));
      expect(found).toEqual([]);
    });
  }
});
