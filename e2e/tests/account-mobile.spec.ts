import { test, expect, createAccount, overflowOf, signInWithStorage, TAKING_SCREENSHOTS } from '../fixtures/test';
import { AccountScreens } from '../pages/account';
import { accessible } from '../pages/a11y';

const SCREENS_SIGNED_OUT = ['/user/signup', '/user/login', '/user/recovery-password'];
const SCREENS_SIGNED_IN = ['/user/welcome', '/user/add-teammates', '/user/update-password'];

/** The smallest phone the issue names: nothing may scroll sideways, and every screen stays accessible. */
test('every account screen fits a 360 px wide phone', async ({ page, request }) => {
  const ui = new AccountScreens(page, 'en');
  await page.setViewportSize({ width: 360, height: 740 });
  const check = async (path: string) => {
    await page.goto(path);
    await expect(page.locator('.user-layout__form h1')).toBeVisible();
    expect(await overflowOf(page), `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    await accessible(page, path);
    if (TAKING_SCREENSHOTS)
      await page.screenshot({ path: `../.tmp/screenshots/account-360${path.replace(/\//g, '-')}.png`, fullPage: true });
  };
  for (const path of SCREENS_SIGNED_OUT) await check(path);
  await page.evaluate(() =>
    localStorage.setItem('tokenValidationEmail', 'someone.with.a.long.name@a-rather-long-company-domain.com'),
  );
  await check('/user/check-token');
  await expect(ui.digit(6)).toBeInViewport();

  const account = await createAccount(request);
  await signInWithStorage(page, account, '/user/add-teammates');
  await page.setViewportSize({ width: 360, height: 740 });
  for (const path of SCREENS_SIGNED_IN) await check(path);
});
