import { test, expect } from '../fixtures/test';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';

/** Every screen says where the person is in the tab title, translated, and no two screens share one. */
for (const lang of ['en', 'pt', 'es', 'hi', 'it'] as Lang[]) {
  test.describe(`document titles (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('one distinct, translated title per screen', async ({ page }) => {
      const t = (ns: string, key: string) => texts(lang, ns)(key);
      const screens: [string, string][] = [
        ['/user/signup', t('signup', 'title')],
        ['/user/login', t('login', 'title')],
        ['/user/recovery-password', t('recovery', 'title')],
        ['/user/check-token', t('codeCheck', 'title')],
        ['/user/check-token-recovery', t('codeCheck', 'titleRecovery')],
        ['/guest', t('guest', 'title')],
        // Chromium is a supported browser: the page says so in its title.
        ['/supported-browser', t('pages', 'supported.okTitle')],
        ['/login-error-sso', t('pages', 'sso.title')],
        ['/auth', t('pages', 'auth.errorTitle')],
        ['/clear', t('pages', 'clear.title')],
        ['/help/third-party-cookies', t('meeting', 'cookiesHelp.title')],
        ['/no-such-page', t('pages', 'notFound.title')],
        ['/file/000000000000000000000000/download_link?share_key=nope', ''],
        ['/meet/zzz-zzzz-zzz', `${t('errors', 'ERR_VIDEOCONFERENCE_NOT_FOUND')} · zzz-zzzz-zzz`],
      ];
      const seen = new Set<string>();
      for (const [path, screen] of screens) {
        await page.goto(path);
        const heading = page.getByRole('heading', { level: 1 }).first();
        await expect(heading).toBeVisible();
        // The file page's title is its error heading, whichever error the server gives.
        const expected = `${screen || (await heading.textContent())!.trim()} · Suite`;
        await expect(page, path).toHaveTitle(expected);
        seen.add(expected);
      }
      expect(seen.size).toBe(screens.length);
    });
  });
}
