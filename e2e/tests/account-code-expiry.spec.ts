import type { APIRequestContext } from '@playwright/test';
import { test, expect, mailbox, screenshots, uniqueEmail, createAccount } from '../fixtures/test';
import { codeOf, type Mail } from '../fixtures/mailbox';
import { AccountScreens } from '../pages/account';
import { accessible } from '../pages/a11y';
import { BROWSER_LOCALE, type Lang } from '../pages/locale-texts';
import { EXPIRY_CODE_TTL_SECONDS } from '../env';

/**
 * These tests run in the 'code-expiry' project, against a server of their own whose codes live
 * EXPIRY_CODE_TTL_SECONDS (playwright.config.ts), and let a code expire for real: they poll the server's
 * clock (its Date header) until it is past the lifetime of the code in `mail`, counted from when that mail
 * was sent (both in whole seconds, hence the margin).
 */
async function untilExpired(request: APIRequestContext, mail: Mail): Promise<void> {
  const expiredAfter = Date.parse(mail.date) + (EXPIRY_CODE_TTL_SECONDS + 1) * 1000;
  expect(expiredAfter, `Date of the mail: ${mail.date}`).not.toBeNaN();
  const serverNow = async () => Date.parse((await request.get('/api/health')).headers()['date'] ?? '');
  await expect
    .poll(serverNow, { timeout: (EXPIRY_CODE_TTL_SECONDS + 15) * 1000, intervals: [1000] })
    .toBeGreaterThan(expiredAfter);
}

test.describe('expired codes', () => {
  test.describe.configure({ timeout: 120_000 });

  // Spanish and English differ only in their texts: both sign up side by side and wait out one lifetime.
  test('(es, en) an expired sign-up code says so, a new one arrives by mail and works', async ({
    browser,
    request,
  }) => {
    const people = [];
    for (const lang of ['es', 'en'] as Lang[]) {
      const context = await browser.newContext({ locale: BROWSER_LOCALE[lang] });
      const page = await context.newPage();
      const ui = new AccountScreens(page, lang);
      const email = uniqueEmail('late');
      await page.goto('/user/signup');
      await ui.signUp(email);
      await ui.expectCodeScreen(email);
      people.push({ lang, context, page, ui, email, mail: await mailbox.waitFor(email) });
    }
    // The later of the two mails expired is both expired.
    await untilExpired(request, people.at(-1)!.mail);
    for (const { lang, context, page, ui, email, mail } of people) {
      await test.step(lang, async () => {
        await ui.typeCode(codeOf(mail));
        await expect(page.getByRole('status').filter({ hasText: ui.errorsT('ERR_TOKEN_EXPIRED') })).toBeVisible();
        await ui.expectBoxesEmpty();
        await expect(ui.digit(1)).toBeFocused();
        await accessible(page, `expired code (${lang})`);
        if (lang === 'en') await screenshots(page, 'account-code-expired');
        await ui.typeCode(await mailbox.code(email, { count: 2 }));
        await expect(page).toHaveURL(/\/user\/welcome$/);
        await context.close();
      });
    }
  });

  test.describe('(it)', () => {
    test.use({ locale: BROWSER_LOCALE.it });
    test('an expired recovery code is replaced the same way', async ({ page, request }) => {
      const ui = new AccountScreens(page, 'it');
      const account = await createAccount(request);
      await page.goto('/user/recovery-password');
      await ui.field(ui.recoveryT('email')).fill(account.email);
      await page.getByRole('button', { name: ui.recoveryT('submit'), exact: true }).click();
      await ui.expectCodeScreen(account.email);
      const mail = await mailbox.waitFor(account.email, { count: 2 });
      await untilExpired(request, mail);
      await ui.typeCode(codeOf(mail));
      await expect(page.getByText(ui.errorsT('ERR_TOKEN_EXPIRED'))).toBeVisible();
      await ui.typeCode(await mailbox.code(account.email, { count: 3 }));
      await expect(page).toHaveURL(/\/user\/update-password$/);
    });
  });
});
