import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, mailbox, createAccount, uniqueEmail, TAKING_SCREENSHOTS } from '../fixtures/test';
import type { Mail } from '../fixtures/mailbox';
import { WORK_DIR } from '../env';

/**
 * Each kind of mail the server sends, delivered for real to the suite's SMTP server, then its HTML part
 * opened in Chromium as a mail client would show it: at 600, 360 and 320 px, light and dark. In the
 * screenshot pass (`npm run screenshots`) each is also shot into <work dir>/mail-screenshots (not committed).
 */
const SHOTS = join(WORK_DIR, 'mail-screenshots');
/** 600: the mail's full width; 360: a phone; 320: the narrowest screen it must fit without scrolling. */
const WIDTHS = [600, 360, 320] as const;
const SCHEMES = ['light', 'dark'] as const;

type Kind = 'signup-code' | 'resend-code' | 'recovery-code' | 'invite';

/** Makes the running server send every kind in `language`, through the API as the screens call it. */
async function sendEveryKind(page: Page, language: string): Promise<Record<Kind, Mail>> {
  const request = page.request;
  const newcomer = uniqueEmail('newcomer');
  expect((await request.post('/api/v2/user', { data: { email: newcomer, language } })).status()).toBe(201);
  const signup = await mailbox.waitFor(newcomer);
  const resent = await request.put('/api/v2/user/resend_confirmation', { data: { email: newcomer, language } });
  expect(resent.status(), await resent.text()).toBe(200);
  const resend = await mailbox.waitFor(newcomer, { count: 2 });

  // A registered corporate account: its password recovery, and its invitation of a teammate.
  const account = await createAccount(request);
  const forgot = await request.post('/api/v2/user/forgot-password', { data: { email: account.email, language } });
  expect(forgot.status(), await forgot.text()).toBe(200);
  const recovery = await mailbox.waitFor(account.email, { count: 2 });
  const teammate = `teammate@${account.email.split('@')[1]}`;
  const invited = await request.post('/api/invite/teammates', {
    headers: { authorization: `Bearer ${account.token}` },
    data: { emails: [teammate], language },
  });
  expect(invited.status(), await invited.text()).toBe(200);
  const invite = await mailbox.waitFor(teammate);
  return { 'signup-code': signup, 'resend-code': resend, 'recovery-code': recovery, invite };
}

interface Rendered {
  overflow: number;
  logo: { loaded: boolean; width: number; alt: string };
  poppinsLoaded: number;
  /** Contrast ratios of the heading and the code (or the button) against what is behind them. */
  contrast: { heading: number; main: number; footerLink: number };
  lang: string;
  buttonHref: string | null;
}

/** What a reader of the opened mail gets: overflow, the logo, web fonts, colours, the button's address. */
function inspect(page: Page): Promise<Rendered> {
  return page.evaluate(async () => {
    await document.fonts.ready;
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = (c: string) => {
      const [r = 0, g = 0, b = 0] = rgb(c).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = (el: Element | null): string => {
      for (let e = el; e; e = e.parentElement) {
        const bg = getComputedStyle(e).backgroundColor;
        if (rgb(bg)[3] !== 0 && bg !== 'transparent') return bg;
      }
      return 'rgb(255, 255, 255)';
    };
    const contrast = (el: Element | null) => {
      if (!el) return 0;
      const [a, b] = [luminance(getComputedStyle(el).color), luminance(background(el))];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    };
    const img = document.querySelector('img');
    let poppinsLoaded = 0;
    document.fonts.forEach((f) => {
      if (f.family.replace(/["']/g, '') === 'Poppins' && f.status === 'loaded') poppinsLoaded += 1;
    });
    const button = document.querySelector('a.em-button');
    return {
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      logo: { loaded: Boolean(img?.complete), width: img?.naturalWidth ?? 0, alt: img?.alt ?? '' },
      poppinsLoaded,
      contrast: {
        heading: contrast(document.querySelector('h1')),
        main: contrast(document.querySelector('.em-code') ?? button),
        footerLink: contrast(Array.from(document.querySelectorAll('a.em-link')).at(-1) ?? null),
      },
      lang: document.documentElement.lang,
      buttonHref: button?.getAttribute('href') ?? null,
    };
  });
}

for (const language of ['en', 'hi']) {
  test(`every mail kind in ${language} reads well at 600, 360 and 320 px, light and dark`, async ({ page }) => {
    test.setTimeout(180_000);
    if (TAKING_SCREENSHOTS) mkdirSync(SHOTS, { recursive: true });
    const mails = await sendEveryKind(page, language);
    // The resent code says it is new, and when (UTC) and from which browser it was asked; the first does not.
    const [first, again] = [mails['signup-code'], mails['resend-code']];
    expect(again.subject).not.toBe(first.subject);
    expect(again.text).toMatch(new RegExp(`${new Date().getUTCFullYear()}.* UTC .*Chrome`));
    expect(first.text).not.toContain('Chrome');
    for (const [kind, mail] of Object.entries(mails) as [Kind, Mail][]) {
      const code = /^(\d{6})$/m.exec(mail.text)?.[1];
      const textLink = /https?:\/\/\S*\/confirm-invite\?inviteToken=\S+/.exec(mail.text)?.[0];
      expect(kind === 'invite' ? textLink : code, `${kind}: the plain-text part carries the code or link`).toBeTruthy();
      for (const width of WIDTHS) {
        for (const colorScheme of SCHEMES) {
          const where = `${kind} ${language} ${width}px ${colorScheme}`;
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ colorScheme });
          await page.setContent(mail.html, { waitUntil: 'load' });
          const seen = await inspect(page);
          expect(seen.lang, where).toBe(language === 'en' ? 'en-US' : 'hi');
          expect(seen.overflow, `${where}: no horizontal scrolling`).toBeLessThanOrEqual(0);
          expect(seen.logo, `${where}: the logo loaded from PUBLIC_URL`).toEqual({
            loaded: true,
            width: 108,
            alt: 'Suite',
          });
          expect(seen.poppinsLoaded, `${where}: Poppins from PUBLIC_URL`).toBeGreaterThan(0);
          expect(seen.contrast.heading, `${where}: heading readable`).toBeGreaterThanOrEqual(4.5);
          expect(seen.contrast.main, `${where}: code / button readable`).toBeGreaterThanOrEqual(4.5);
          expect(seen.contrast.footerLink, `${where}: footer link readable`).toBeGreaterThanOrEqual(4.5);
          if (TAKING_SCREENSHOTS)
            await page.screenshot({
              path: join(SHOTS, `${kind}-${language}-${width}-${colorScheme}.png`),
              fullPage: true,
            });
          if (kind === 'invite') {
            expect(seen.buttonHref, `${where}: the button goes where the plain-text link goes`).toBe(textLink);
            await expect(page.getByRole('link', { name: textLink })).toHaveAttribute('href', textLink ?? '');
            // A client that drops the wrapping rules (and the fixed table layout) still wraps the link at its <wbr>s.
            const bare = mail.html.replace(/word-break:break-all;?|overflow-wrap:anywhere;?|table-layout:fixed;?/g, '');
            expect(bare).not.toBe(mail.html);
            await page.setContent(bare, { waitUntil: 'load' });
            expect(
              (await inspect(page)).overflow,
              `${where}: no scrolling without the CSS wrapping rules`,
            ).toBeLessThanOrEqual(0);
          } else {
            // Double-click (a tap and hold on a phone) selects the whole code and nothing else.
            await page.locator('.em-code').dblclick();
            expect(await page.evaluate(() => window.getSelection()?.toString().trim()), where).toBe(code);
          }
        }
      }
    }
  });
}
