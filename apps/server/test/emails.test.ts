import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, LANGUAGE_TAGS, type Language } from '@suite/contract';
// mailauth: an independent DKIM verifier (the one mail providers' tooling uses), given our own DNS answer.
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { mailContent, renderEmail, type MailMessage } from '../src/emails/index.js';
import { MAIL_TEXTS } from '../src/emails/texts.js';
import { call, mailTo, startWorld, type AccountsWorld } from './accounts-helpers.js';
import { configProblems, createTestApp } from './helpers.js';
import { codeIn, startSmtp } from './smtp.js';

const site = { appTitle: 'Suite', publicUrl: 'https://suite.example.org' };
const CODE = '012345';
const KINDS = ['confirm-code', 'recovery-code', 'invite', 'confirm-code-resent', 'recovery-code-resent'] as const;
type Kind = (typeof KINDS)[number];
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
/** A resent code: asked for at 20:36 UTC on 24 November 2026 from Firefox on Windows. */
const ASKED = { at: Date.UTC(2026, 10, 24, 20, 36, 12), userAgent: FIREFOX_WINDOWS };

function message(kind: Kind, language: Language, name = 'Ada Lovelace'): MailMessage {
  const inviter = { name, address: 'ada@contoso.com' };
  if (kind === 'invite') {
    return { kind, to: 'b@contoso.com', language, inviter, inviteToken: 'tok.en-with.a.long.signature', days: 7 };
  }
  if (kind === 'confirm-code-resent' || kind === 'recovery-code-resent') {
    return {
      kind: kind === 'confirm-code-resent' ? 'confirm-code' : 'recovery-code',
      to: 'a@contoso.com',
      language,
      code: CODE,
      resent: ASKED,
    };
  }
  return { kind, to: 'a@contoso.com', language, code: CODE };
}

const decode = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** What a reader sees of the HTML part: the hidden preview apart, then the body's text. */
function readHtml(html: string): { preview: string; visible: string } {
  const preview = /<div[^>]*data-skip-in-text="true"[^>]*>([^<]*)/.exec(html)?.[1] ?? '';
  const body = html
    .replace(/<head>[\s\S]*<\/head>/, '')
    .replace(/<div[^>]*data-skip-in-text="true"[^>]*>[\s\S]*?<\/div><\/div>/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<wbr\/>/g, '')
    // Inline spans (the code's two halves) add no space between their texts.
    .replace(/<\/?span[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ');
  return { preview: squash(decode(preview)), visible: squash(decode(body)) };
}

/**
 * The written-out link of a mail: its box's table is `table-layout: fixed`, the box and the link wrap
 * anywhere, and the link text has a <wbr> at least every 20 characters (clients that drop the CSS still
 * wrap it). Returns the link's text.
 */
function linkBox(html: string, url: string): string {
  const escaped = url.replace(/&/g, '&amp;').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const box = new RegExp(
    `<table[^>]*style="[^"]*table-layout:fixed[^"]*"[^>]*><tbody><tr><td class="em-urlbox" style="([^"]*)"><a href="${escaped}" class="em-link" style="([^"]*)"[^>]*>(.*?)</a></td>`,
  ).exec(html);
  expect(box, 'the link in its box').not.toBeNull();
  const [, boxStyle = '', linkStyle = '', inner = ''] = box ?? [];
  for (const style of [boxStyle, linkStyle]) {
    expect(style).toContain('word-break:break-all');
    expect(style).toContain('overflow-wrap:anywhere');
  }
  expect(boxStyle).toContain('max-width:100%');
  const pieces = inner.split('<wbr/>');
  for (const piece of pieces) expect(decode(piece).length).toBeLessThanOrEqual(20);
  return decode(pieces.join(''));
}

/** WCAG 2 contrast ratio of two #RRGGBB colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r = 0, g = 0, bl = 0] = [1, 3, 5].map((i) => {
      const s = parseInt(hex.slice(i, i + 2), 16) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

describe('mail templates', () => {
  for (const language of LANGUAGES) {
    for (const kind of KINDS) {
      it(`${kind} in ${language}: heading, content, footer, preview, plain text with the same content`, async () => {
        const mail = await renderEmail(message(kind, language), site);
        const c = mailContent(message(kind, language), site);
        const { preview, visible } = readHtml(mail.html);

        expect(mail.html).toMatch(new RegExp(`<html dir="ltr" lang="${LANGUAGE_TAGS[language]}"`));
        expect(mail.html).toContain(`<h1 class="em-text em-h1"`);
        expect(decode(/<h1[^>]*>([^<]*)<\/h1>/.exec(mail.html)?.[1] ?? '')).toBe(c.heading);
        // The logo, from PUBLIC_URL, with the product name as alt text; the product name beside it.
        expect(mail.html).toMatch(/<img alt="Suite" height="36" src="https:\/\/suite\.example\.org\/email\/logo\.png"/);
        expect(visible.startsWith('Suite ')).toBe(true);
        // At most 600 px wide; dark mode declared, with the code and text recoloured.
        expect(mail.html).toMatch(/<table align="center" width="600"[^>]*style="max-width:600px;width:100%"/);
        expect(mail.html).toContain('<meta name="color-scheme" content="light dark"/>');
        expect(mail.html).toContain('<meta name="supported-color-schemes" content="light dark"/>');
        expect(mail.html).toMatch(/@media \(prefers-color-scheme: dark\)[\s\S]*\.em-code \{ color: #FFFFFF/);

        // The hidden preview says what the mail is for and never shows the code; nor does the subject.
        expect(preview).toBe(c.preview);
        expect(preview).not.toContain(CODE);
        expect(mail.subject).not.toContain(CODE);

        for (const part of [c.intro, c.validity, c.why, c.ignore, c.footer, c.footerAuto]) {
          expect(visible).toContain(part);
          expect(mail.text).toContain(part);
        }
        expect(visible).toContain(`${c.footer} ${site.publicUrl}`);
        expect(mail.text).toContain(`${c.footer} ${site.publicUrl}`);

        if (kind === 'invite') {
          const url = 'https://suite.example.org/confirm-invite?inviteToken=tok.en-with.a.long.signature';
          const hrefs = [...mail.html.matchAll(/href="([^"]+)"/g)].map((m) => decode(m[1] ?? ''));
          // The button, then the same address written out in its box.
          expect(hrefs.filter((h) => h === url)).toHaveLength(2);
          expect(linkBox(mail.html, url)).toBe(url);
          expect(mail.text).toContain(`${c.action?.label}:\n${url}\n`);
          expect(hrefs.every((h) => h.startsWith(site.publicUrl))).toBe(true);
          expect(visible).toContain('Ada Lovelace (ada@contoso.com)');
          expect(c.intro).toContain('contoso.com ');
          expect(mail.subject).toContain('ada@contoso.com');
          expect(mail.subject).not.toContain('Ada Lovelace');
        } else {
          const box = /<div class="em-code"[^>]*>(.*?)<\/div>/.exec(mail.html);
          // Grouped 3-3 as on the code screen, by two adjacent spans: nothing between the halves, so a
          // selection or a copy carries the six digits only.
          const groups = [...(box?.[1] ?? '').matchAll(/<span[^>]*>([^<]*)<\/span>/g)].map((m) => m[1]);
          expect(groups).toEqual([CODE.slice(0, 3), CODE.slice(3)]);
          expect((box?.[1] ?? '').replace(/<[^>]+>/g, '')).toBe(CODE);
          expect(box?.[1]).toMatch(
            /^<span>\d{3}<\/span><span class="em-code-gap" style="padding-left:\d+px">\d{3}<\/span>$/,
          );
          expect(box?.[0]).toContain('user-select:all');
          expect(decode(box?.[0] ?? '')).toMatch(/font-family:'SFMono-Regular'[^;]*monospace/);
          expect(mail.text).toMatch(new RegExp(`\\n\\n${CODE}\\n\\n`));
        }

        // Same content: what the HTML shows is the plain-text part's lines (and the button's hint), nothing else.
        const lines = mail.text
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l && l !== '--');
        let rest = visible;
        for (const line of [...lines].sort((a, b) => b.length - a.length)) {
          const seen =
            line.endsWith(':') && kind === 'invite' && line === `${c.action?.label}:` ? line.slice(0, -1) : line;
          expect(rest, `HTML lacks: ${seen}`).toContain(seen);
          rest = rest.replace(seen, ' ');
        }
        if (c.action) rest = rest.replace(c.action.fallback, ' ');
        expect(squash(rest)).toBe('Suite');
      });
    }
  }

  it('shows every link as the button, a short "copy this link" line and the link in a box that cannot widen the mail', async () => {
    for (const language of LANGUAGES) {
      const notice = { kind: 'password-changed', to: 'a@contoso.com', language } as const;
      for (const m of [message('invite', language), notice]) {
        const mail = await renderEmail(m, site);
        const c = mailContent(m, site);
        expect(c.action?.fallback).toBe(MAIL_TEXTS[language].linkFallback);
        expect(readHtml(mail.html).visible).toContain(`${c.action?.label} ${c.action?.fallback} `);
        expect(linkBox(mail.html, c.action?.url ?? '')).toBe(c.action?.url);
      }
    }
    // "copy this link into your browser", not "open this address", in each language's words.
    expect(MAIL_TEXTS.en.linkFallback).toBe('Or copy this link into your browser:');
    const copy = { en: /copy/, pt: /copie/, es: /copia/, hi: /कॉपी/, it: /copia/ };
    for (const language of LANGUAGES) expect(MAIL_TEXTS[language].linkFallback).toMatch(copy[language]);
  });

  it('keeps the web font from Outlook for Windows, which then uses a Windows font stack', async () => {
    for (const language of ['en', 'hi'] as const) {
      const { html } = await renderEmail(message('confirm-code', language), site);
      const guarded = /<!--\[if !mso\]><!--><style>([\s\S]*?)<\/style><!--<!\[endif\]-->/.exec(html);
      expect(guarded?.[1]).toContain("@font-face { font-family: 'Poppins'");
      // No font face outside the guard (Outlook would read it and fall back to Times New Roman).
      expect(html.replace(guarded?.[0] ?? '', '')).not.toContain('@font-face');
      const mso = /<!--\[if mso\]><style>([\s\S]*?)<\/style><!\[endif\]-->/.exec(html)?.[1] ?? '';
      const stack = /body, table, td, div, p, a, span, h1 \{ font-family: ([^;!]*) !important/.exec(mso)?.[1];
      // Outlook reads the first font of a stack only: a Windows font, never the web font.
      expect(stack?.split(',')[0]).toBe(language === 'hi' ? "'Nirmala UI'" : "'Segoe UI'");
      expect(stack).not.toContain('Poppins');
      expect(mso).toMatch(/\.em-code \{ font-family: Consolas[^}]*monospace !important/);
    }
  });

  it('writes the footer link and the copyable link at 4.5:1 or more, light and dark', async () => {
    const { html } = await renderEmail(message('invite', 'en'), site);
    const page = /<body class="em-bg" style="[^"]*background-color:(#[0-9A-F]{6})/i.exec(html)?.[1] ?? '';
    const footerLink = new RegExp(`<a href="${site.publicUrl}" class="em-link" style="color:(#[0-9A-F]{6})`, 'i').exec(
      html,
    )?.[1];
    const box =
      /class="em-urlbox" style="background-color:(#[0-9A-F]{6})[^"]*"><a [^>]*style="color:(#[0-9A-F]{6})/i.exec(html);
    expect(contrast(footerLink ?? '', page)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(box?.[2] ?? '', box?.[1] ?? '')).toBeGreaterThanOrEqual(4.5);
    const dark = /@media \(prefers-color-scheme: dark\) \{([\s\S]*?)\n\}/.exec(html)?.[1] ?? '';
    const darkOf = (cls: string, prop: string) =>
      new RegExp(`\\.${cls} \\{[^}]*${prop}: (#[0-9A-F]{6})`, 'i').exec(dark)?.[1] ?? '';
    expect(contrast(darkOf('em-link', 'color'), darkOf('em-bg', 'background-color'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast(darkOf('em-link', 'color'), darkOf('em-urlbox', 'background-color'))).toBeGreaterThanOrEqual(4.5);
  });

  it('says "reset" in the password mails, and confirms an address in good Hindi', () => {
    const reset = { en: 'reset', pt: 'redefinição', es: 'restablecer', hi: 'रीसेट', it: 'reimpostare' };
    for (const language of LANGUAGES) {
      expect(MAIL_TEXTS[language].recoverySubject).toContain(reset[language]);
      const all = Object.values(MAIL_TEXTS[language]).join(' ');
      expect(all).not.toMatch(/recovery|recuperação|recuperación|रिकवरी|recupero/i);
    }
    expect(MAIL_TEXTS.hi.confirmIntro).toContain('अपने ईमेल पते की पुष्टि करने');
    expect(MAIL_TEXTS.hi.confirmIntro).not.toContain('पता पुष्टि करने');
  });

  it('gives every kind in every language its own subject', async () => {
    const subjects = new Set<string>();
    for (const language of LANGUAGES) {
      for (const kind of KINDS) subjects.add((await renderEmail(message(kind, language), site)).subject);
    }
    expect(subjects.size).toBe(LANGUAGES.length * KINDS.length);
  });

  it('says in a resent code mail that it replaces the earlier one, when (UTC) and from which browser; not in the first', async () => {
    const browsers = {
      en: 'Firefox on Windows',
      pt: 'Firefox no Windows',
      es: 'Firefox en Windows',
      hi: 'Windows पर Firefox',
      it: 'Firefox su Windows',
    };
    for (const language of LANGUAGES) {
      const t = MAIL_TEXTS[language];
      for (const purpose of ['confirm-code', 'recovery-code'] as const) {
        const first = await renderEmail(message(purpose, language), site);
        const again = await renderEmail(message(`${purpose}-resent`, language), site);
        const c = mailContent(message(`${purpose}-resent`, language), site);
        expect(again.subject).not.toBe(first.subject);
        expect(again.subject).toBe(
          (purpose === 'confirm-code' ? t.confirmSubjectNew : t.recoverySubjectNew).replace('{app}', 'Suite'),
        );
        expect(c.replaces).toBe(t.codeReplaces);
        // The request's time in UTC, in the mail's language, and the browser by name.
        const when = new Intl.DateTimeFormat(LANGUAGE_TAGS[language], {
          dateStyle: 'medium',
          timeStyle: 'short',
          timeZone: 'UTC',
        }).format(ASKED.at);
        expect(c.requested).toBe(
          t.codeRequested.replace('{when}', `${when} UTC`).replace('{browser}', browsers[language]),
        );
        expect(c.requested).toMatch(/2026.*(20|8):36/);
        // What to do if it was not you: the usual line, and never to share the code.
        expect(c.ignore).toContain(t.codeNeverShare.replace('{app}', 'Suite'));
        for (const part of [c.replaces, c.requested, c.ignore]) {
          expect(readHtml(again.html).visible).toContain(part);
          expect(again.text).toContain(part);
        }
        // The first mail stays as it was.
        for (const part of [t.codeReplaces, t.codeNeverShare.replace('{app}', 'Suite'), 'Firefox']) {
          expect(first.text).not.toContain(part);
          expect(first.html).not.toContain(part);
        }
      }
    }
  });

  it('names the browser from fixed names only, never the header text', async () => {
    const cases: [string, string][] = [
      [FIREFOX_WINDOWS, 'Firefox on Windows'],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
        'Edge on Windows',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
        'Safari on macOS',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
        'Safari on iOS',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
        'Chrome on Android',
      ],
      // The web's sessions panel names it the same (the contract's one User-Agent table).
      [
        'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0',
        'Edge on Android',
      ],
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
        'Chrome on Linux',
      ],
      ['curl/8.5.0', 'an unknown browser'],
      ['', 'an unknown browser'],
      ['<img src=x onerror=alert(1)> Firefox/1 (Windows) "quoted"', 'Firefox on Windows'],
    ];
    for (const [userAgent, name] of cases) {
      const m = { ...message('confirm-code-resent', 'en'), resent: { at: ASKED.at, userAgent } } as MailMessage;
      const mail = await renderEmail(m, site);
      expect(mailContent(m, site).requested).toMatch(new RegExp(` from ${name}\\.$`));
      expect(mail.html).not.toContain('onerror');
      expect(mail.text).not.toContain('quoted');
    }
  });

  it('announces the configured code lifetime', async () => {
    const mail = await renderEmail(message('confirm-code', 'en'), { ...site, codeTtlMs: 5 * 60_000 });
    expect(mail.text).toContain('The code works for 5 minutes.');
    expect(readHtml(mail.html).visible).toContain('The code works for 5 minutes.');
    const short = await renderEmail(message('confirm-code', 'it'), { ...site, codeTtlMs: 60_000 });
    expect(short.text).toContain('Il codice è valido per 1 minuto.');
  });

  it('writes Hindi with a Devanagari font stack after Poppins, and loads Poppins from PUBLIC_URL', async () => {
    const hi = await renderEmail(message('confirm-code', 'hi'), site);
    const en = await renderEmail(message('confirm-code', 'en'), site);
    expect(decode(hi.html)).toMatch(/font-family:Poppins, 'Noto Sans Devanagari', 'Nirmala UI'[^;"]*sans-serif/);
    expect(en.html).not.toContain('Noto Sans Devanagari');
    expect(decode(en.html)).toMatch(/font-family:Poppins, -apple-system[^;"]*sans-serif/);
    expect(hi.html).toContain("url('https://suite.example.org/email/fonts/poppins-devanagari-400-normal.woff2')");
    expect(readHtml(hi.html).visible).toContain(MAIL_TEXTS.hi.confirmHeading);
  });

  it("shows the inviter's name escaped, without hidden direction controls, on one line, at most 64 characters", async () => {
    const inviter = `<script>alert(1)</script>\u202Egnp.exe\u0007\nAda ${'x'.repeat(100)}`;
    const mail = await renderEmail(message('invite', 'en', inviter), site);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    for (const part of [mail.html, mail.text, mail.subject]) {
      expect(part).not.toMatch(/[\u202E\u0007]/);
    }
    const name = mailContent(message('invite', 'en', inviter), site).intro.replace(
      ' (ada@contoso.com) invited you to join the contoso.com team on Suite.',
      '',
    );
    expect([...name]).toHaveLength(64);
    expect(name.endsWith('…')).toBe(true);
    expect(name).not.toContain('\n');
    expect(mail.subject).toBe('ada@contoso.com invited you to join contoso.com on Suite');
  });

  it('never lets the name an inviter typed stand alone: the subject names their address and the domain', async () => {
    const phishy = 'IT Helpdesk: sign in at acme-sso.example/login';
    for (const language of LANGUAGES) {
      const m = message('invite', language, phishy);
      const mail = await renderEmail(m, site);
      // The subject is read first, in every inbox list: no typed name in it at all.
      expect(mail.subject).not.toContain('acme-sso');
      expect(mail.subject).toContain('ada@contoso.com');
      expect(mail.subject).toContain('contoso.com ');
      // In the body the name comes with the account's address, and the organisation's domain.
      const intro = mailContent(m, site).intro;
      expect(intro).toContain(`${phishy} (ada@contoso.com)`);
      expect(intro.replace('ada@contoso.com', '')).toContain('contoso.com');
      expect(readHtml(mail.html).visible).toContain(intro);
      expect(mail.text).toContain(intro);
    }
  });

  it('an invitation from an administrator (admin CLI) names no person and no free-mail "team"', async () => {
    const m: MailMessage = { ...message('invite', 'pt'), to: 'friend@gmail.com', inviter: null } as MailMessage;
    const mail = await renderEmail(m, site);
    expect(mail.subject).toBe('Você foi convidado para o Suite');
    expect(mailContent(m, site).intro).toBe('Um administrador convidou você para entrar no Suite.');
    expect(mail.text).not.toContain('gmail.com');
  });
});

describe('mail assets under PUBLIC_URL', () => {
  it('serves the logo (PNG) and the Poppins files to other origins', async () => {
    const t = await createTestApp();
    try {
      const logo = await t.app.inject({ method: 'GET', url: '/email/logo.png' });
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['content-type']).toBe('image/png');
      expect(logo.rawPayload.subarray(1, 4).toString()).toBe('PNG');
      // Width and height from the PNG header: square, sharp at 36 px on 3x screens.
      expect([logo.rawPayload.readUInt32BE(16), logo.rawPayload.readUInt32BE(20)]).toEqual([108, 108]);
      expect(logo.headers['cross-origin-resource-policy']).toBe('cross-origin');
      const font = await t.app.inject({ method: 'GET', url: '/email/fonts/poppins-devanagari-600-normal.woff2' });
      expect(font.statusCode).toBe(200);
      expect(font.headers['content-type']).toBe('font/woff2');
      expect(font.headers['access-control-allow-origin']).toBe('*');
      expect(font.rawPayload.subarray(0, 4).toString()).toBe('wOF2');
    } finally {
      await t.close();
    }
  });
});

function rsaKeys() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    dnsRecord: `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`,
  };
}

function header(raw: string, name: string): string | undefined {
  const head = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1];
}

describe('mail headers', () => {
  const keys = rsaKeys();
  let w: AccountsWorld;
  beforeAll(async () => {
    w = await startWorld({
      PUBLIC_URL: 'https://suite.example.org',
      MAIL_FROM: '"Suite" <no-reply@example.org>',
      MAIL_REPLY_TO: 'support@example.org',
      MAIL_ENVELOPE_FROM: 'bounces@example.org',
      DKIM_DOMAIN: 'example.org',
      DKIM_SELECTOR: 'mail2026',
      // One line with \n escapes, as an environment file holds it.
      DKIM_PRIVATE_KEY: keys.pem.replace(/\n/g, '\\n'),
    });
  });
  afterAll(() => w.close());

  it('sends Message-ID on PUBLIC_URL’s domain, Date, Auto-Submitted and a DKIM signature that verifies', async () => {
    const before = Date.now();
    const res = await call(w.app, { method: 'POST', url: '/v2/user', body: { email: 'dkim@contoso.com' } });
    expect(res.statusCode).toBe(201);
    const mail = await mailTo(w.smtp, 'dkim@contoso.com');
    expect(codeIn(mail)).toMatch(/^\d{6}$/);
    expect(header(mail.raw, 'Message-ID')).toMatch(/^<[0-9a-f-]{36}@suite\.example\.org>$/);
    const date = Date.parse(header(mail.raw, 'Date') ?? '');
    expect(date).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(date).toBeLessThanOrEqual(Date.now());
    expect(header(mail.raw, 'Auto-Submitted')).toBe('auto-generated');

    const signature = header(mail.raw, 'DKIM-Signature') ?? '';
    expect(signature).toMatch(/(^|;\s*)d=example\.org;/);
    expect(signature).toMatch(/(^|;\s*)s=mail2026;/);
    const asked: string[] = [];
    const result = await dkimVerify(Buffer.from(mail.raw), {
      resolver: async (name: string, type: string) => {
        asked.push(`${name} ${type}`);
        if (name === 'mail2026._domainkey.example.org' && type === 'TXT') return [[keys.dnsRecord]];
        throw Object.assign(new Error('no such record'), { code: 'ENOTFOUND' });
      },
    });
    expect(asked).toContain('mail2026._domainkey.example.org TXT');
    expect(result.results.map((r: { status: { result: string } }) => r.status.result)).toEqual(['pass']);
    // From, To, Subject, Date, Message-ID and Reply-To signed; From, Subject and Reply-To over-signed.
    const signed = /(?:^|;\s*)h=([^;]+)/.exec(signature)?.[1]?.replace(/\s+/g, '').toLowerCase();
    expect(signed).toBe('from:to:subject:date:message-id:reply-to:from:subject:reply-to');
    expect(header(mail.raw, 'From')).toBe('Suite <no-reply@example.org>');
    expect(header(mail.raw, 'Reply-To')).toBe('support@example.org');
    // Bounces go to MAIL_ENVELOPE_FROM (SMTP MAIL FROM), not to the From address.
    expect(mail.from).toBe('bounces@example.org');
  });

  it('a relay that adds a second From, another Reply-To or changes the Subject breaks the signature', async () => {
    const res = await call(w.app, { method: 'POST', url: '/v2/user', body: { email: 'relay@contoso.com' } });
    expect(res.statusCode).toBe(201);
    const mail = await mailTo(w.smtp, 'relay@contoso.com');
    const resolver = async () => [[keys.dnsRecord]];
    const verdict = async (raw: string) =>
      (await dkimVerify(Buffer.from(raw), { resolver })).results.map(
        (r: { status: { result: string } }) => r.status.result,
      );
    expect(await verdict(mail.raw)).toEqual(['pass']);
    const at = mail.raw.search(/\r?\n\r?\n/);
    const withHeader = (line: string) => `${mail.raw.slice(0, at)}\r\n${line}${mail.raw.slice(at)}`;
    expect(await verdict(withHeader('From: IT Helpdesk <helpdesk@attacker.example>'))).toEqual(['fail']);
    expect(await verdict(withHeader('Reply-To: helpdesk@attacker.example'))).toEqual(['fail']);
    expect(await verdict(withHeader('Subject: Sign in at acme-sso.example/login'))).toEqual(['fail']);
  });

  it('a signature made with another key does not verify (the check above means something)', async () => {
    const res = await call(w.app, { method: 'POST', url: '/v2/user', body: { email: 'other@contoso.com' } });
    expect(res.statusCode).toBe(201);
    const mail = await mailTo(w.smtp, 'other@contoso.com');
    const result = await dkimVerify(Buffer.from(mail.raw), {
      resolver: async () => [[rsaKeys().dnsRecord]],
    });
    expect(result.results.map((r: { status: { result: string } }) => r.status.result)).toEqual(['fail']);
  });

  it('sends unsigned mail with the same headers when DKIM is not configured', async () => {
    const plain = await startWorld({ PUBLIC_URL: 'https://other.example.net:8443' });
    try {
      const res = await call(plain.app, { method: 'POST', url: '/v2/user', body: { email: 'plain@contoso.com' } });
      expect(res.statusCode).toBe(201);
      const mail = await mailTo(plain.smtp, 'plain@contoso.com');
      expect(header(mail.raw, 'DKIM-Signature')).toBeUndefined();
      expect(header(mail.raw, 'Message-ID')).toMatch(/@other\.example\.net>$/);
      expect(header(mail.raw, 'Auto-Submitted')).toBe('auto-generated');
      expect(mail.text).toContain('https://other.example.net:8443');
    } finally {
      await plain.close();
    }
  });
});

describe('a mail sent again after its answer was lost', () => {
  it('carries the same Message-ID, derived from its outbox row, on every try', async () => {
    // The relay takes the first copy and cuts the connection before its 250 (RFC 5321 §6.1): the outbox
    // cannot know it arrived and sends it again.
    let dropped = 0;
    const smtp = await startSmtp(0, { dropAnswer: () => dropped++ === 0 });
    const t = await createTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://suite.example.org',
      MAIL_RETRY_BASE_MS: '50',
      RATE_LIMIT_SCALE: '100',
    });
    try {
      const res = await call(t.app, { method: 'POST', url: '/v2/user', body: { email: 'lost@contoso.com' } });
      expect(res.statusCode).toBe(201);
      await smtp.waitFor((m) => m.to.includes('lost@contoso.com') && smtp.messages.indexOf(m) === 1, 15_000);
      const copies = smtp.messages.filter((m) => m.to.includes('lost@contoso.com'));
      expect(copies).toHaveLength(2);
      const row = await t.app.db.kysely
        .selectFrom('mail_outbox')
        .select('id')
        .where('to_address', '=', 'lost@contoso.com')
        .executeTakeFirstOrThrow();
      expect(copies.map((m) => m.messageId)).toEqual([
        `<${row.id}@suite.example.org>`,
        `<${row.id}@suite.example.org>`,
      ]);
      expect(codeIn(copies[1]!)).toBe(codeIn(copies[0]!));
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});

describe('DKIM configuration', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'suite-dkim-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const keys = rsaKeys();

  it('takes the key as PEM text or as the path of a PEM file', () => {
    const file = join(dataDir, 'dkim.pem');
    writeFileSync(file, keys.pem);
    const env = { DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 's1' };
    expect(configProblems(dataDir, { ...env, DKIM_PRIVATE_KEY: keys.pem })).toEqual([]);
    expect(configProblems(dataDir, { ...env, DKIM_PRIVATE_KEY: file })).toEqual([]);
  });

  it('lists every DKIM problem with the others: partial settings, unreadable or wrong keys, bad names', () => {
    expect(configProblems(dataDir, { DKIM_DOMAIN: 'example.org', PORT: 'x' })).toEqual([
      expect.stringMatching(/^PORT: /),
      'DKIM_SELECTOR, DKIM_PRIVATE_KEY: required with DKIM_DOMAIN (DKIM signing needs all three)',
    ]);
    const env = { DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 's1' };
    expect(configProblems(dataDir, { ...env, DKIM_PRIVATE_KEY: join(dataDir, 'missing.pem') })).toEqual([
      `DKIM_PRIVATE_KEY: neither a PEM key nor a readable file (ENOENT: ${join(dataDir, 'missing.pem')})`,
    ]);
    expect(
      configProblems(dataDir, {
        ...env,
        DKIM_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----',
      }),
    ).toEqual(['DKIM_PRIVATE_KEY: not a readable PEM private key']);
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(configProblems(dataDir, { ...env, DKIM_PRIVATE_KEY: ed })).toEqual([
      'DKIM_PRIVATE_KEY: must be an RSA key (DKIM rsa-sha256), not ed25519',
    ]);
    expect(
      configProblems(dataDir, { DKIM_DOMAIN: 'exa mple.org', DKIM_SELECTOR: 's_1', DKIM_PRIVATE_KEY: keys.pem }),
    ).toEqual([
      'DKIM_DOMAIN: must be a domain name, e.g. example.com',
      'DKIM_SELECTOR: must be a DNS label, e.g. mail2026',
    ]);
  });
});
