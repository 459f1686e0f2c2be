import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCESS_REQUEST_REASONS, LANGUAGES, type Language } from '@suite/contract';
import { mailContent, type MailMessage, type MailSite } from '../src/emails/index.js';
import type { Notice } from '../src/emails/notice-texts.js';

/**
 * The mails' words follow the screens' rules (apps/web/src/lib/vocabulary.test.ts): every mail, in every
 * language, filled in as it is sent, checked the way a reader would read it. Where a mail names what
 * the screens name (the code's lifetime, the reset screen's title, the "Forgot your password?" link,
 * the Security section, two-step verification), it is the screen's own text, read from the web's locales.
 */

const site: MailSite = { appTitle: 'Suite', publicUrl: 'https://suite.example.org', codeTtlMs: 10 * 60_000 };
const NOTICES: Notice[] = [
  'passkey-added',
  'passkey-removed',
  'totp-on',
  'totp-off',
  'password-changed',
  'recovery-codes-new',
  'factors-reset',
  'two-step-reset',
  'passkeys-reset',
];
const ADMIN_KINDS = ['access-request', 'access-digest', 'access-approved', 'access-refused', 'claim-vanished'] as const;
const RESENT = { at: Date.UTC(2026, 10, 24, 20, 36), userAgent: 'Mozilla/5.0 (Windows NT 10.0) Firefox/133.0' };

/** Every mail the product sends, each kind once with every optional part it can carry. */
function everyMail(language: Language): { name: string; message: MailMessage }[] {
  const to = 'b@contoso.com';
  const inviter = { name: 'Ada Lovelace', address: 'ada@contoso.com' };
  const mails: { name: string; message: MailMessage }[] = [];
  for (const kind of ['confirm-code', 'recovery-code'] as const) {
    mails.push({ name: kind, message: { kind, to, language, code: '012345' } });
    mails.push({ name: `${kind} (sent again)`, message: { kind, to, language, code: '012345', resent: RESENT } });
  }
  mails.push({ name: 'invite', message: { kind: 'invite', to, language, inviter, inviteToken: 't', days: 7 } });
  mails.push({
    name: 'invite (administrator)',
    message: { kind: 'invite', to, language, inviter: null, inviteToken: 't', days: 7 },
  });
  for (const kind of NOTICES) {
    mails.push({ name: kind, message: { kind, to, language } });
    mails.push({ name: `${kind} (with "this wasn't me")`, message: { kind, to, language, revertToken: 'r' } });
  }
  for (const kind of ['password-known', 'mailbox-known'] as const)
    mails.push({ name: kind, message: { kind, to, language } });
  mails.push({
    name: 'meeting-invite',
    message: { kind: 'meeting-invite', to, language, host: inviter, title: 'Weekly sync', link: 'https://x/meet/a' },
  });
  for (const kind of ADMIN_KINDS) {
    for (const reason of ACCESS_REQUEST_REASONS) {
      mails.push({
        name: `${kind} (${reason})`,
        message: {
          kind,
          to,
          language,
          domain: 'contoso.com',
          link: 'https://x/app/admin',
          requester: 'c@contoso.com',
          reason,
          message: 'Please let me in',
          until: Date.UTC(2026, 11, 1),
          count: 12,
        },
      });
    }
  }
  return mails;
}

/** Every line a reader sees of one mail: subject, hidden preview, heading, body, button, footer. */
function linesOf(message: MailMessage): string[] {
  const c = mailContent(message, site);
  return [
    c.subject,
    c.preview,
    c.heading,
    c.replaces,
    c.intro,
    c.action?.label,
    c.action?.fallback,
    c.validity,
    c.requested,
    c.why,
    c.ignore,
    c.footer,
    c.footerAuto,
  ].filter((line): line is string => typeof line === 'string');
}

/** `mail name: line` for each line of each mail of a language that matches. */
function hits(language: Language, pattern: RegExp): string[] {
  return everyMail(language).flatMap(({ name, message }) =>
    linesOf(message)
      .filter((line) => pattern.test(line))
      .map((line) => `${name}: ${line}`),
  );
}

/** A text of the web's locales, e.g. screen('en', 'codeCheck', 'validFor_other'). */
const LOCALES = join(import.meta.dirname, '../../web/src/locales');
function screen(language: Language, file: string, path: string): string {
  let value: unknown = JSON.parse(readFileSync(join(LOCALES, language, `${file}.json`), 'utf8'));
  for (const key of path.split('.')) value = (value as Record<string, unknown>)[key];
  if (typeof value !== 'string') throw new Error(`no text ${language}/${file} ${path}`);
  return value;
}

describe('the mails, every kind in every language', () => {
  it('cover every kind the product sends, each line filled in', () => {
    for (const language of LANGUAGES) {
      const mails = everyMail(language);
      expect(mails.length).toBeGreaterThan(40);
      for (const { name, message } of mails) {
        for (const line of linesOf(message)) expect(line, `${language} ${name}`).not.toMatch(/[{}]|undefined/);
      }
    }
    // The locales the screens' rules read are the web's own.
    expect(readdirSync(LOCALES).sort()).toEqual([...LANGUAGES].sort());
  });

  it('quote names with typographic quotes, never straight ones', () => {
    for (const language of LANGUAGES) expect(hits(language, /"/)).toEqual([]);
  });

  it('begin the "why you get this" line the same way in every mail of a language', () => {
    const opening = {
      en: 'You are receiving this because ',
      pt: 'Você recebeu esta mensagem porque ',
      es: 'Recibes este mensaje porque ',
      hi: 'आपको यह संदेश इसलिए मिला है क्योंकि ',
      it: 'Ricevi questo messaggio perché ',
    };
    for (const language of LANGUAGES) {
      const whys = everyMail(language).map(({ name, message }) => `${name}: ${mailContent(message, site).why}`);
      expect(whys.filter((why) => !why.includes(`: ${opening[language]}`))).toEqual([]);
    }
  });
});

describe('English', () => {
  it('is spelled the American way and says "email"', () => {
    expect(
      hits(
        'en',
        /e-mail|\b(this|the|a) mail\b|homologat|recognis|organis|authoris|cancell|colour|behaviour|favourite|centre\b|licence|catalogue|enrolment|\bany more\b/i,
      ),
    ).toEqual([]);
  });

  it('signs in and out, never logs in; no "token"', () => {
    expect(hits('en', /\blog ?(in|out)\b|\blogin\b|\blogout\b|\btokens?\b/i)).toEqual([]);
  });
});

/** A compound that must not break at its hyphen on a narrow screen carries U+2011, as on the screens. */
describe('compounds that must not break', () => {
  const breakable: Record<Language, RegExp> = {
    en: /sign-on/i,
    pt: /e-mail/i,
    es: /e-mail/i,
    it: /sign-on|e-mail/i,
    // Transliterated compounds read as one word: "साइन-/अप" split over two lines is not Hindi.
    hi: /साइन-ऑन|ई-मेल|साइन-अप|साइन-इन|दो-चरणीय/,
  };
  for (const language of LANGUAGES) {
    it(`${language}: carry a non-breaking hyphen`, () => {
      expect(hits(language, breakable[language])).toEqual([]);
    });
  }
});

describe('one term per idea, the screens’ term', () => {
  it('pt: signing out is "sair" (never "desconectar"), single sign-on is "login único"', () => {
    expect(hits('pt', /desconect|fa(ça|zer) login|logout|logon|autentica[çc][ãa]o [úu]nica|acesso [úu]nico/i)).toEqual(
      [],
    );
    expect(hits('pt', /login único/).length).toBeGreaterThan(0);
    // A code or an invitation "is valid for" its time, as the screens say.
    expect(hits('pt', /\bvale por\b/)).toEqual([]);
  });

  it('es: the reader is "tú" everywhere, as on the forms', () => {
    const usted =
      /\busted(es)?\b|\b(introduzca|ingrese|elija|use|utilice|ignore|acepte|cambie|confirme|compruebe|vuelva|revise|inicie|abra|copie|pegue|escriba|haga|pulse|espere|contacte|comparta|apruebe|rechace)\b|\b(su|sus) (cuenta|contraseña|correo|dirección|código|equipo|navegador|dispositivos?|solicitud|sesión|conexión|organización)\b/i;
    expect(hits('es', usted)).toEqual([]);
    // One way to say "it was (not) you": the screens' "¿No fuiste tú?".
    expect(hits('es', /has sido tú|fue usted/i)).toEqual([]);
    expect(hits('es', /\bacceder\b|desconect|código vale\b/i)).toEqual([]);
  });

  it('it: "uscire" for signing out, one apostrophe (’), "email"', () => {
    expect(hits('it', /disconnes|disconnett|\blogin\b|logout/i)).toEqual([]);
    expect(hits('it', /[A-Za-zÀ-ÿ]'[A-Za-zÀ-ÿ]/)).toEqual([]);
    expect(hits('it', /codice vale\b/i)).toEqual([]);
    expect(hits('it', /e-mail/i)).toEqual([]);
  });

  it('hi: the screens’ words for email, administrator, if, use and try again', () => {
    // ईमेल, व्यवस्थापक, अगर, इस्तेमाल, फिर से कोशिश करें; कोड and पासवर्ड stay.
    expect(hits('hi', /ई-मेल|ई मेल|एडमिन|प्रयास करें|कूटशब्द|संकेत\b|पृष्ठ|सेशन|एक्सेस|यदि|उपयोग करें/)).toEqual([]);
  });
});

describe('what the screens name, the mails name the same', () => {
  for (const language of LANGUAGES) {
    it(`${language}: code lifetime, reset title, "Forgot your password?", Security, Administration, two-step verification`, () => {
      const code = (kind: 'confirm-code' | 'recovery-code', ttlMinutes: number) =>
        mailContent(
          { kind, to: 'a@contoso.com', language, code: '012345' },
          { ...site, codeTtlMs: ttlMinutes * 60_000 },
        );
      // The code screen says under the boxes how long the code works; the mail says it in the same words.
      expect(code('confirm-code', 10).validity).toBe(
        screen(language, 'codeCheck', 'validFor_other').replace('{{count}}', '10'),
      );
      expect(code('confirm-code', 1).validity).toBe(
        screen(language, 'codeCheck', 'validFor_one').replace('{{count}}', '1'),
      );
      // The reset mail's heading is the title of the screen its code is typed into.
      expect(code('recovery-code', 10).heading).toBe(screen(language, 'codeCheck', 'titleRecovery'));

      const notice = (kind: Notice) => mailContent({ kind, to: 'a@contoso.com', language }, site);
      // The link the reader is sent to is named as the sign-in screen names it, in quotes.
      expect(notice('password-changed').validity).toContain(`“${screen(language, 'login', 'forgot')}”`);
      // The section named is the home's own.
      expect(notice('two-step-reset').intro).toContain(screen(language, 'home', 'nav.security'));
      // The administrators' screens under the home's name for them, never "the console".
      const request = mailContent(
        { kind: 'access-request', to: 'a@contoso.com', language, domain: 'contoso.com', link: 'https://x/' },
        site,
      );
      expect(request.intro).toContain(screen(language, 'home', 'nav.admin'));
      expect(hits(language, /consol|कंसोल/i)).toEqual([]);
      // Two-step verification under the Security screen's name.
      const twoStep = screen(language, 'security', 'totp.title').toLowerCase();
      for (const kind of ['totp-on', 'totp-off', 'two-step-reset'] as const) {
        // The same word; a mail may hold its hyphen together (U+2011).
        expect(notice(kind).subject.toLowerCase().replaceAll('\u2011', '-')).toContain(twoStep);
      }
    });
  }
});
