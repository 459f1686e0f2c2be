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

/**
 * Protocol field names an IT administrator finds in their identity provider's console (OpenID
 * Back-Channel Logout, RP-initiated logout's post_logout_redirect_uri, SAML's Single Logout Service):
 * the console's SSO page names them as the provider does, to be pasted there.
 */
const PROTOCOL_NAMES = new Set([
  'adminSso.json ours.backchannel',
  'adminSso.json ours.postLogout',
  'adminSso.json ours.slo',
]);

function texts(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => texts(inner, path ? `${path}.${key}` : key));
  return [];
}

describe('sign-in vocabulary', () => {
  for (const [lang, other] of Object.entries(OTHER_WORDS)) {
    it(`${lang}: one pair of words for signing in and out`, () => {
      const found = readdirSync(join(LOCALES, lang))
        // A meeting's "leave" and "disconnected" are about the call, not the account.
        .filter((file) => file.endsWith('.json') && file !== 'meeting.json')
        .flatMap((file) =>
          texts(JSON.parse(readFileSync(join(LOCALES, lang, file), 'utf8')))
            .filter(([key]) => !PROTOCOL_NAMES.has(`${file} ${key}`))
            .map(([, t]) => `${file}: ${t}`),
        )
        .filter((line) => other.test(line.slice(line.indexOf(': ') + 2)));
      expect(found).toEqual([]);
    });
  }
});
