import { test, expect } from '../fixtures/test';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';

/** The screens and the title each gives in `lang` ('' for the file page: its title is its error heading). */
function screensIn(lang: Lang): [string, string][] {
  const t = (ns: string, key: string) => texts(lang, ns)(key);
  return [
    ['/user/signup', t('signup', 'title')],
    ['/user/login', t('login', 'title')],
    ['/user/recovery-password', t('recovery', 'title')],
    ['/user/check-token', t('codeCheck', 'title')],
    ['/user/check-token-recovery', t('codeCheck', 'titleRecovery')],
    ['/guest', t('guest', 'title')],
    // Chromium is a supported browser: the page says so in its title.
    ['/supported-browser', t('supportedBrowser', 'okTitle')],
    ['/login-error-sso', t('ssoError', 'title')],
    ['/auth', t('pages', 'auth.errorTitle')],
    ['/clear', t('pages', 'clear.title')],
    ['/help/third-party-cookies', t('meeting', 'cookiesHelp.title')],
    ['/no-such-page', t('pages', 'notFound.title')],
    ['/file/000000000000000000000000/download_link?share_key=nope', ''],
    // The heading's words without the catalogue's full stop (the spec writes it "video conference not found").
    ['/meet/zzz-zzzz-zzz', `${t('errors', 'ERR_VIDEOCONFERENCE_NOT_FOUND').replace(/[.।]$/, '')} · zzz-zzzz-zzz`],
  ];
}

/**
 * Which screens each language opens in the browser. English and Hindi (another script, the longest texts)
 * open every screen; the mechanism is the same in every language and only the texts differ, so Portuguese,
 * Spanish and Italian share the screens out between them (each screen opened in one of them), and every
 * language's titles are checked distinct from its locale files below.
 */
const LATIN_SHARE: Partial<Record<Lang, number>> = { pt: 0, es: 1, it: 2 };
function opened(lang: Lang, screens: [string, string][]): [string, string][] {
  const share = LATIN_SHARE[lang];
  return share === undefined ? screens : screens.filter((_, i) => i % 3 === share);
}

/** Every screen says where the person is in the tab title, translated, and no two screens share one. */
for (const lang of ['en', 'pt', 'es', 'hi', 'it'] as Lang[]) {
  test.describe(`document titles (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('one distinct, translated title per screen', async ({ page }) => {
      const screens = screensIn(lang);
      // The titles named in the locale files are distinct (the file page's comes from the server).
      const named = screens.map(([, title]) => title).filter(Boolean);
      expect(new Set(named).size, `${lang}: two screens share a title`).toBe(named.length);
      const seen = new Set<string>();
      const walk = opened(lang, screens);
      for (const [path, screen] of walk) {
        await page.goto(path);
        const heading = page.getByRole('heading', { level: 1 }).first();
        await expect(heading).toBeVisible();
        // The file page's title is its error heading, whichever error the server gives.
        const expected = `${screen || (await heading.textContent())!.trim()} · Suite`;
        await expect(page, path).toHaveTitle(expected);
        seen.add(expected);
      }
      expect(seen.size).toBe(walk.length);
    });
  });
}
