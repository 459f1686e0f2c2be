import type { Browser, Page } from '@playwright/test';
import { test, expect, createAccount, type Account } from '../fixtures/test';
import { accessible } from '../pages/a11y';
import { AccountScreens } from '../pages/account';
import { texts } from '../pages/locale-texts';

/** Two devices of one user: a Linux desktop and an iPhone (each its own browser context, its own session). */
const UA = {
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
};
const t = texts('en', 'sessions');

/** A fresh account with no session left over from its creation (those were made by the API client). */
async function freshAccount(request: Parameters<typeof createAccount>[0]): Promise<Account> {
  const account = await createAccount(request);
  const ended = await request.post('/api/auth/logout-all', { headers: { authorization: `Bearer ${account.token}` } });
  expect(ended.status()).toBe(200);
  return account;
}

/** Signs in through the login screen on a new device (browser context) and waits for the home. */
async function device(browser: Browser, account: Account, userAgent: string, phone = false): Promise<Page> {
  const context = await browser.newContext({
    userAgent,
    ...(phone ? { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } : {}),
  });
  const page = await context.newPage();
  await page.goto('/user/login');
  const ui = new AccountScreens(page);
  await ui.logIn(account.email, account.password);
  await ui.expectHome(account.email);
  await ui.openSection('sessions');
  return page;
}

const panel = (page: Page) => page.getByRole('region', { name: t('title') });
const rows = (page: Page) =>
  panel(page)
    .getByRole('list', { name: t('title') })
    .getByRole('listitem');
const row = (page: Page, device: string) => rows(page).filter({ has: page.getByRole('heading', { name: device }) });
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('authorization'));

async function sessionsWith(page: Page, token: string) {
  return page.request.get('/api/v2/user/sessions', { headers: { authorization: `Bearer ${token}` } });
}

test.describe('active sessions (two devices, one user)', () => {
  test('the home lists both devices, this one marked; signing the other out ends it there', async ({
    browser,
    request,
  }) => {
    const account = await freshAccount(request);
    const desktop = await device(browser, account, UA.linux);
    const phone = await device(browser, account, UA.iphone, true);
    const phoneToken = (await storedToken(phone))!;

    // The phone's home already knew both sessions; the desktop sees the phone once it reloads.
    await expect(rows(phone)).toHaveCount(2);
    await expect(row(phone, 'Safari 17 on iPhone')).toContainText(t('thisDevice'));
    await desktop.reload();
    await expect(rows(desktop)).toHaveCount(2);
    await expect(rows(desktop).first().getByRole('heading')).toHaveText('Chrome 131 on Linux');
    await expect(row(desktop, 'Chrome 131 on Linux')).toContainText(t('thisDevice'));
    await expect(row(desktop, 'Chrome 131 on Linux').getByRole('button')).toHaveCount(0);
    await expect(row(desktop, 'Safari 17 on iPhone')).not.toContainText(t('thisDevice'));
    await expect(row(desktop, 'Safari 17 on iPhone')).toContainText(t('lastSeen', { when: 'now' }));
    await accessible(desktop, 'sessions panel');
    await accessible(phone, 'sessions panel on a phone');

    // By keyboard: the button says what it signs out; focus stays in the panel when its row goes.
    const signOut = row(desktop, 'Safari 17 on iPhone').getByRole('button', {
      name: t('signOutOf', { device: 'Safari 17 on iPhone' }),
    });
    await expect(signOut).toHaveText(t('signOut'));
    await signOut.focus();
    await desktop.keyboard.press('Enter');
    await expect(panel(desktop).getByRole('status')).toHaveText(t('signedOut', { device: 'Safari 17 on iPhone' }));
    await expect(rows(desktop)).toHaveCount(1);
    await expect(panel(desktop).getByRole('heading', { name: t('title') })).toBeFocused();
    await expect(panel(desktop).getByText(t('onlyThis'))).toBeVisible();
    // Alone, "all devices" would only be this one: not offered.
    await expect(panel(desktop).getByRole('button', { name: t('all') })).toHaveCount(0);

    // The phone's session is over: its token is refused, and its next visit to the home lands on login.
    expect((await sessionsWith(phone, phoneToken)).status()).toBe(401);
    await phone.reload();
    await expect(phone).toHaveURL(/\/user\/login$/);
    expect(await storedToken(phone)).toBeNull();

    // The desktop is still signed in.
    await desktop.reload();
    await expect(rows(desktop)).toHaveCount(1);
    await expect(desktop).toHaveURL(/\/app\/sessions$/);
    expect((await sessionsWith(desktop, (await storedToken(desktop))!)).status()).toBe(200);
    await desktop.context().close();
    await phone.context().close();
  });

  test('"sign out of all devices" ends both sessions and this device lands on login', async ({ browser, request }) => {
    const account = await freshAccount(request);
    const desktop = await device(browser, account, UA.linux);
    const phone = await device(browser, account, UA.iphone, true);
    const desktopToken = (await storedToken(desktop))!;
    const phoneToken = (await storedToken(phone))!;
    await desktop.reload();
    await expect(rows(desktop)).toHaveCount(2);

    await panel(desktop)
      .getByRole('button', { name: t('all') })
      .click();
    const dialog = desktop.getByRole('dialog', { name: t('allTitle') });
    await expect(dialog).toContainText(t('allText'));
    await accessible(desktop, 'sign out of all devices dialog');
    await dialog.getByRole('button', { name: t('allConfirm') }).click();
    await expect(desktop).toHaveURL(/\/user\/login$/);
    expect(await storedToken(desktop)).toBeNull();

    expect((await sessionsWith(desktop, desktopToken)).status()).toBe(401);
    expect((await sessionsWith(phone, phoneToken)).status()).toBe(401);
    // The phone's next authenticated action (its home's list) fails and sends it to login.
    await phone.reload();
    await expect(phone).toHaveURL(/\/user\/login$/);
    expect(await storedToken(phone)).toBeNull();
    await desktop.context().close();
    await phone.context().close();
  });
});
