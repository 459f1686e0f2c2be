import { test, expect, mailbox, screenshots, uniqueEmail, createAccount } from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { AccountScreens } from '../pages/account';
import { accessible } from '../pages/a11y';
import { tabTo } from '../pages/keyboard';
import { BROWSER_LOCALE, type Lang } from '../pages/locale-texts';

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`login (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('show/hide, wrong password, success to the home, sign out', async ({ page, request }) => {
      const ui = new AccountScreens(page, lang);
      const account = await createAccount(request);
      await page.goto('/user/login');
      await expect(page.getByRole('list', { name: /\d/ })).toHaveCount(0); // no step dots on login
      await expect(page).toHaveTitle(`${ui.loginT('title')} · Suite`);
      await expect(page.getByRole('link', { name: ui.loginT('forgot') })).toHaveAttribute(
        'href',
        '/user/recovery-password',
      );
      await expect(page.getByRole('link', { name: ui.loginT('toSignup') })).toHaveAttribute('href', '/user/signup');
      const password = ui.field(ui.loginT('password'));
      await password.fill('secret-typed');
      await expect(password).toHaveAttribute('type', 'password');
      // One toggle, one name; its state is aria-pressed.
      const toggle = page.getByRole('button', { name: ui.commonT('password.show') });
      await expect(toggle).toHaveAttribute('aria-pressed', 'false');
      await toggle.click();
      await expect(password).toHaveAttribute('type', 'text');
      await expect(toggle).toHaveAttribute('aria-pressed', 'true');
      await toggle.click();
      await expect(password).toHaveAttribute('type', 'password');
      await expect(toggle).toHaveAttribute('aria-pressed', 'false');
      await ui.logIn(account.email, 'wrong-password');
      await expect(page.getByRole('alert').filter({ hasText: ui.errorsT('ERR_INVALID_CREDENTIALS') })).toBeVisible();
      await accessible(page, 'login error');
      if (lang === 'en') await screenshots(page, 'account-login');
      await ui.logIn(account.email, account.password);
      await ui.expectHome(account.email);
      await ui.signOutFromMenu();
      await expect(page).toHaveURL(/\/user\/login$/);
      expect(await page.evaluate(() => localStorage.getItem('authorization'))).toBeNull();
    });

    test('an unconfirmed user gets Send again, which asks first and leads to the code screen', async ({
      page,
      request,
    }) => {
      const ui = new AccountScreens(page, lang);
      const email = uniqueEmail('pending');
      expect((await request.post('/api/v2/user', { data: { email } })).status()).toBe(201);
      await mailbox.waitFor(email);
      await page.goto('/user/login');
      await ui.logIn(email, 'whatever-1');
      await expect(page.getByRole('alert').filter({ hasText: ui.errorsT('ERR_USER_NOT_CONFIRMED') })).toBeVisible();
      const sendAgain = page.getByRole('button', { name: ui.loginT('resend') });
      await sendAgain.click();
      const dialog = page.getByRole('dialog', { name: ui.loginT('resendTitle') });
      await expect(dialog).toContainText(email);
      await accessible(page, 'resend dialog');
      if (lang === 'en') await screenshots(page, 'account-login-resend');
      await dialog.getByRole('button', { name: ui.loginT('resendCancel') }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/user\/login$/);
      await sendAgain.click();
      await dialog.getByRole('button', { name: ui.loginT('resendConfirm') }).click();
      await ui.expectCodeScreen(email);
      await ui.typeCode(await mailbox.code(email, { count: 2 }));
      await expect(page).toHaveURL(/\/user\/welcome$/);
      await ui.register('Grace', 'Hopper', 'Another-Pass-9');
      await expect(page).toHaveURL(/\/user\/add-teammates$/);
    });
  });
}

for (const lang of ['en', 'es'] as Lang[]) {
  test.describe(`single sign-on (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('a single-sign-on-only domain offers only single sign-on once the address is typed', async ({
      page,
      request,
    }) => {
      const ui = new AccountScreens(page, lang);
      const account = await createAccount(request);
      const domain = account.email.split('@')[1]!;
      admin('domain', 'set', domain, '--sso-only');
      await page.goto('/user/login');
      // Discovery from the typed address: the password field goes, only single sign-on is offered.
      await ui.field(ui.loginT('email')).fill(account.email);
      await expect(page.getByText(ui.ssoT('required', { domain }))).toBeVisible();
      await expect(page.getByRole('link', { name: ui.ssoT('continue') })).toHaveAttribute(
        'href',
        `/api/sso/start?email=${encodeURIComponent(account.email)}`,
      );
      await expect(ui.field(ui.loginT('password'))).toHaveCount(0);
      await accessible(page, 'sso only');
      await screenshots(page, `account-sso-only-${lang}`);
      // No connection is set up for this domain: the start says so on the login screen.
      await page.goto(`/api/sso/start?email=${encodeURIComponent(account.email)}`);
      await expect(page).toHaveURL(/\/user\/login\?sso=not-configured$/);
      await expect(page.getByText(ui.loginT('ssoNotConfigured'))).toBeVisible();
    });
  });
}

test('a server that cannot be reached: the login says it could not connect', async ({ page }) => {
  const ui = new AccountScreens(page, 'en');
  await page.route('**/api/auth/login', (route) => route.abort('connectionrefused'));
  await page.goto('/user/login');
  await ui.logIn('ada@contoso.com', 'whatever-1');
  await expect(page.getByRole('alert').filter({ hasText: ui.errorsT('ERR_NETWORK') })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText(/could not connect to the server/i);
  await expect(page).toHaveURL(/\/user\/login$/);
  await expect(page.getByRole('button', { name: ui.loginT('submit'), exact: true })).toBeEnabled();
});

for (const lang of ['en', 'es'] as Lang[]) {
  test.describe(`recovery (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('recovery code, new password with checks, then login with it', async ({ page, request }) => {
      const ui = new AccountScreens(page, lang);
      const account = await createAccount(request);
      await page.goto('/user/login');
      await page.getByRole('link', { name: ui.loginT('forgot') }).click();
      await expect(page).toHaveURL(/\/user\/recovery-password$/);
      await expect(page.getByRole('list', { name: ui.commonT('steps.label', { current: 1, total: 3 }) })).toBeVisible();
      await page.getByRole('button', { name: ui.recoveryT('submit'), exact: true }).click();
      await expect(page.getByText(ui.recoveryT('required'))).toBeVisible();
      await accessible(page, 'recovery');
      if (lang === 'en') await screenshots(page, 'account-recovery');
      await ui.field(ui.recoveryT('email')).fill(account.email);
      await page.getByRole('button', { name: ui.recoveryT('submit'), exact: true }).click();

      await expect(page).toHaveURL(/\/user\/check-token-recovery$/);
      await ui.expectCodeScreen(account.email);
      await expect(page.getByRole('list', { name: ui.commonT('steps.label', { current: 2, total: 3 }) })).toBeVisible();
      await accessible(page, 'recovery code');
      if (lang === 'en') await screenshots(page, 'account-code-recovery');
      await ui.typeCode(await mailbox.code(account.email, { count: 2 }));

      await expect(page).toHaveURL(/\/user\/update-password$/);
      await expect(ui.heading(ui.updateT('title'))).toBeVisible();
      const password = ui.field(ui.updateT('password'));
      const confirmation = ui.field(ui.updateT('confirmation'));
      await password.fill('12345');
      await password.blur();
      await expect(page.getByText(ui.updateT('passwordLength'))).toBeVisible();
      await password.fill('Brand-New-Pass-7');
      await confirmation.fill('Brand-New-Pass-8');
      await confirmation.blur();
      await expect(page.getByText(ui.updateT('mismatch'))).toBeVisible();
      await accessible(page, 'update password');
      if (lang === 'en') await screenshots(page, 'account-update-password');
      await confirmation.fill('Brand-New-Pass-7');
      await page.getByRole('button', { name: ui.updateT('submit') }).click();
      await ui.expectHome(account.email);

      await ui.signOutFromMenu();
      await ui.logIn(account.email, account.password);
      await expect(page.getByRole('alert').filter({ hasText: ui.errorsT('ERR_INVALID_CREDENTIALS') })).toBeVisible();
      await ui.logIn(account.email, 'Brand-New-Pass-7');
      await ui.expectHome(account.email);
    });
  });
}

test('keyboard only: forgot password from the login screen to the home', async ({ page, request }) => {
  const ui = new AccountScreens(page, 'en');
  const account = await createAccount(request);
  await page.goto('/user/login');
  await tabTo(page, page.getByRole('link', { name: ui.loginT('forgot') }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/user\/recovery-password$/);
  // Each new form puts the caret in its first field: the address is just typed.
  await expect(ui.field(ui.recoveryT('email'))).toBeFocused();
  await page.keyboard.type(account.email);
  await page.keyboard.press('Enter');
  await ui.expectCodeScreen(account.email);
  // The first box has the focus already: the code is just typed.
  await page.keyboard.type(await mailbox.code(account.email, { count: 2 }), { delay: 30 });
  await expect(page).toHaveURL(/\/user\/update-password$/);
  await expect(ui.field(ui.updateT('password'))).toBeFocused();
  await page.keyboard.type('Keyboard-Pass-3');
  await tabTo(page, ui.field(ui.updateT('confirmation')));
  await page.keyboard.type('Keyboard-Pass-3');
  await page.keyboard.press('Enter');
  await ui.expectHome(account.email);
  // The account menu by keyboard: Enter opens it on its first item, Sign out.
  await tabTo(page, page.getByRole('banner').getByRole('button'));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: ui.homeT('menu.signOut'), exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/user\/login$/);
  await expect(ui.field(ui.loginT('email'))).toBeFocused();
  await tabTo(page, ui.field(ui.loginT('email')));
  await page.keyboard.type(account.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type('Keyboard-Pass-3');
  await page.keyboard.press('Enter');
  await ui.expectHome(account.email);
});
