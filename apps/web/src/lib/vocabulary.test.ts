import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERRORS } from '@suite/contract';
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

/** Every text of one language, as `file key: text`, with the file and key to tell where a hit is. */
function allTexts(lang: string): { where: string; text: string }[] {
  return readdirSync(join(LOCALES, lang))
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) =>
      texts(JSON.parse(readFileSync(join(LOCALES, lang, file), 'utf8'))).map(([key, text]) => ({
        where: `${file} ${key}`,
        text,
      })),
    );
}
const hits = (lang: string, pattern: RegExp) =>
  allTexts(lang)
    .filter(({ text }) => pattern.test(text))
    .map(({ where, text }) => `${where}: ${text}`);

/**
 * en-US is one spelling: the screens mixed "e-mail" and "email", "recognise" and "organization", and the
 * supported-browser warning said "homologated". The catalogue's English fallbacks follow the same rule.
 */
const NOT_US_ENGLISH =
  /e-mail|homologat|recognis|organis|authoris|customis|prioritis|synchronis|minimis|cancell|colour|behaviour|favourite|honour|centre\b|licence|enrolment|catalogue|travell|labell|\bany more\b|\bwhilst\b/i;

/** Jargon: "token" only where the spec gives the words ("Invalid token", "Invalid access token", "Expired token…"). */
const SPEC_TOKEN_TEXTS = new Set([
  'errors.json INVALID_TOKEN',
  'errors.json ERR_INVALID_ACCESS_TOKEN',
  'errors.json ERR_TOKEN_EXPIRED',
]);

describe('English', () => {
  it('is spelled one way, the American way', () => {
    expect(hits('en', NOT_US_ENGLISH)).toEqual([]);
    const catalogue = Object.entries(ERRORS)
      .filter(([, entry]) => NOT_US_ENGLISH.test(entry.message))
      .map(([code, entry]) => `${code}: ${entry.message}`);
    expect(catalogue).toEqual([]);
  });

  it('says "token" only in the spec’s own messages', () => {
    const found = allTexts('en')
      .filter(({ where, text }) => /\btokens?\b/i.test(text) && !SPEC_TOKEN_TEXTS.has(where))
      .map(({ where, text }) => `${where}: ${text}`);
    expect(found).toEqual([]);
  });

  it('calls the browser warning what it is: not supported', () => {
    const warning = allTexts('en').find(({ where }) => where === 'common.json MSG_HOMOLOGATED_BROWSER');
    expect(warning?.text).toMatch(/^Your browser is not supported\./);
  });
});

/**
 * A compound that must stay whole on a 360-px line ("sign-/on", "e-/mail") carries a non-breaking
 * hyphen (U+2011): CSS has no way to forbid the break a plain hyphen offers.
 */
const BREAKABLE_COMPOUNDS: Record<string, RegExp> = {
  en: /sign-on/i,
  pt: /e-mail/i,
  es: /e-mail/i,
  it: /sign-on|e-mail/i,
  hi: /साइन-ऑन|ई-मेल/,
};

describe('compounds that must not break', () => {
  for (const [lang, breakable] of Object.entries(BREAKABLE_COMPOUNDS)) {
    it(`${lang}: carry a non-breaking hyphen`, () => {
      expect(hits(lang, breakable)).toEqual([]);
    });
  }
});

/** One term per idea in each language; the pinned choice is named in the comment of each rule. */
describe('one term per idea', () => {
  it('pt: single sign-on is "login único" (never "logon único" beside it)', () => {
    expect(hits('pt', /logon|autentica[çc][ãa]o [úu]nica|acesso [úu]nico/i)).toEqual([]);
    expect(hits('pt', /login único/i).length).toBeGreaterThan(0);
  });

  it('es: the reader is "tú" everywhere, as on the forms ("Crea tu cuenta")', () => {
    // "su/sus" stays where it means a third party's ("Conserva su cuenta"): only the reader's things are caught.
    const usted =
      /\busted\b|\b(trabaje|complete|inténtelo|póngase|compruebe|elija|espere|confirme|vuelva|escriba|utilice|introduzca|ingrese|haga|pulse|continúe|empiece|asegúrese|contacte|revise|seleccione|descargue|recargue)\b|\bha llegado\b|\b(su|sus) (equipo|navegador|conexión|organización|dominio|acceso)\b/i;
    expect(hits('es', usted)).toEqual([]);
  });

  it('es, it: a code "is valid for" its minutes (not "vale")', () => {
    expect(hits('es', /código vale\b/i)).toEqual([]);
    expect(hits('it', /codice vale\b/i)).toEqual([]);
  });

  it('it: the terms of use are "termini di utilizzo", under one name', () => {
    expect(
      hits('it', /condizioni d['’]uso|termini d['’]uso|condizioni di (utilizzo|servizio)|termini di servizio/i),
    ).toEqual([]);
    expect(hits('it', /termini di utilizzo/).length).toBeGreaterThan(0);
  });

  it('it: one apostrophe, the typographic one (“all’accesso” beside “l’accesso”, never two kinds)', () => {
    expect(hits('it', /[A-Za-zÀ-ÿ]'[A-Za-zÀ-ÿ]/)).toEqual([]);
  });

  it('hi: one word each for email, administrator, try again, last name, page, session and access', () => {
    // ईमेल, व्यवस्थापक, फिर से कोशिश करें, उपनाम, पेज, सत्र, ऐक्सेस; कोड and पासवर्ड stay (no कूटशब्द, no संकेत).
    expect(hits('hi', /ई-मेल|ई मेल|एडमिन|प्रयास करें|कुलनाम|कूटशब्द|संकेत\b|कार्यालय ईमेल|पृष्ठ|सेशन|एक्सेस/)).toEqual([]);
  });

  it('the administrators’ section is called by its name, as in the home’s menu (no "console")', () => {
    // The key decide.toConsole keeps its old name; only the words a person reads are checked (the SSO
    // page's "console" is the identity provider's own).
    const other: Record<string, RegExp> = {
      en: /\bconsole\b|\bthe administration\b/i,
      pt: /\bconsole\b|\b(na|pela) administração\b/,
      es: /\bconsola\b|\ben la administración\b/,
      it: /\bconsole\b|\bnell’amministrazione\b/,
      hi: /कंसोल/,
    };
    for (const [lang, pattern] of Object.entries(other)) {
      expect(hits(lang, pattern).filter((hit) => !hit.startsWith('adminSso.json'))).toEqual([]);
    }
  });
});
