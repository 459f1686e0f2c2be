import { test, expect, mailbox, screenshots, uniqueEmail, createAccount } from '../fixtures/test';
import { SecurityScreens, appCode } from '../pages/security';
import { admin } from '../fixtures/admin';
import { AccountScreens } from '../pages/account';
import { accessible } from '../pages/a11y';
import { tabTo } from '../pages/keyboard';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';

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
      const message = page.getByRole('alert').filter({ hasText: ui.errorsT('ERR_USER_NOT_CONFIRMED') });
      await expect(message).toBeVisible();
      // The way out is a link inside the message; Sign in stays the one primary button.
      const sendAgain = message.getByRole('button', { name: ui.loginT('resend') });
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
      // The lead follows the state: the organization's single sign-on, no promise of a password.
      await expect(page.getByText(ui.loginT('ssoLead', { domain }))).toBeVisible();
      await expect(page.getByText(ui.loginT('lead'))).toHaveCount(0);
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

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`trusted browser (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('"Trust this browser" skips the code step on this browser until sign-out everywhere', async ({
      page,
      request,
    }) => {
      const ui = new SecurityScreens(page, lang);
      const stepT = texts(lang, 'loginStep');
      const account = await createAccount(request);
      const auth = { authorization: `Bearer ${account.token}` };
      const setup = await request.post('/api/v2/user/totp/setup', { headers: auth });
      expect(setup.status(), await setup.text()).toBe(200);
      const { secret } = (await setup.json()) as { secret: string };
      // The code of the step before: the current one stays free for the sign-in below.
      const on = await request.post('/api/v2/user/totp/enable', { headers: auth, data: { code: appCode(secret, -1) } });
      expect(on.status(), await on.text()).toBe(200);

      await page.goto('/user/login');
      await ui.logIn(account.email, account.password);
      await ui.expectCodeStep(account.email);
      const trust = page.getByRole('checkbox', { name: stepT('trust') });
      await trust.check();
      await accessible(page, 'second step with trust');
      await screenshots(page, `login-second-step-trust-${lang}`);
      await ui.answerWithApp(appCode(secret));
      await ui.expectHome(account.email);
      // The proof lives in an httpOnly cookie sent to the sign-in only: no script can read or copy it.
      const cookie = (await page.context().cookies()).find((c) => c.name === 'suite_trusted');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth/login' });

      // Signed out: the password alone signs in again on this browser.
      await ui.signOut();
      await ui.logIn(account.email, account.password);
      await ui.expectHome(account.email);

      // "Sign out of all devices" ends the trust with the sessions: the code is asked again.
      const token = await page.evaluate(() => window.localStorage.getItem('authorization'));
      const all = await request.post('/api/auth/logout-all', { headers: { authorization: `Bearer ${token}` } });
      expect(all.status(), await all.text()).toBeLessThan(300);
      await page.evaluate(() => window.localStorage.clear());
      await page.goto('/user/login');
      await ui.logIn(account.email, account.password);
      await ui.expectCodeStep(account.email);
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
  // The account menu by keyboard: Enter opens it on its first item ("Invite your teammates" for a
  // company account), ArrowDown reaches Sign out.
  await tabTo(page, page.getByRole('banner').getByRole('button'));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: ui.homeT('menu.invite'), exact: true })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: ui.homeT('menu.signOut'), exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/user\/login$/);
  await expect(ui.field(ui.loginT('email'))).toBeFocused();
  // Signing out forgets the address (privacy on a shared computer): the empty field takes it again.
  await expect(ui.field(ui.loginT('email'))).toHaveValue('');
  await page.keyboard.type(account.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type('Keyboard-Pass-3');
  await page.keyboard.press('Enter');
  await ui.expectHome(account.email);
});
