import { test, expect, mailbox, screenshots, uniqueEmail, createAccount } from '../fixtures/test';
import { AccountScreens } from '../pages/account';
import { accessible } from '../pages/a11y';
import { BROWSER_LOCALE, type Lang } from '../pages/locale-texts';

/** The e2e server runs with CODE_TTL_SECONDS=30 (playwright.config.ts): these tests let a code expire for real. */
const PAST_EXPIRY_MS = 32_000;

test.describe('expired codes', () => {
  test.describe.configure({ timeout: 120_000 });

  for (const lang of ['es', 'en'] as Lang[]) {
    test.describe(`(${lang})`, () => {
      test.use({ locale: BROWSER_LOCALE[lang] });

      test('an expired sign-up code says so, a new one arrives by mail and works', async ({ page }) => {
        const ui = new AccountScreens(page, lang);
        const email = uniqueEmail('late');
        await page.goto('/user/signup');
        await ui.signUp(email);
        await ui.expectCodeScreen(email);
        const old = await mailbox.code(email);
        await page.waitForTimeout(PAST_EXPIRY_MS);
        await ui.typeCode(old);
        await expect(page.getByRole('status').filter({ hasText: ui.errorsT('ERR_TOKEN_EXPIRED') })).toBeVisible();
        await ui.expectBoxesEmpty();
        await expect(ui.digit(1)).toBeFocused();
        await accessible(page, 'expired code');
        if (lang === 'en') await screenshots(page, 'account-code-expired');
        await ui.typeCode(await mailbox.code(email, { count: 2 }));
        await expect(page).toHaveURL(/\/user\/welcome$/);
      });
    });
  }

  test.describe('(it)', () => {
    test.use({ locale: BROWSER_LOCALE.it });
    test('an expired recovery code is replaced the same way', async ({ page, request }) => {
      const ui = new AccountScreens(page, 'it');
      const account = await createAccount(request);
      await page.goto('/user/recovery-password');
      await ui.field(ui.recoveryT('email')).fill(account.email);
      await page.getByRole('button', { name: ui.recoveryT('submit'), exact: true }).click();
      await ui.expectCodeScreen(account.email);
      const old = await mailbox.code(account.email, { count: 2 });
      await page.waitForTimeout(PAST_EXPIRY_MS);
      await ui.typeCode(old);
      await expect(page.getByText(ui.errorsT('ERR_TOKEN_EXPIRED'))).toBeVisible();
      await ui.typeCode(await mailbox.code(account.email, { count: 3 }));
      await expect(page).toHaveURL(/\/user\/update-password$/);
    });
  });
});
