import { test, expect, createAccount, mailbox, screenshots, uniqueEmail } from '../fixtures/test';
import { AccountScreens } from '../pages/account';
import { tabTo } from '../pages/keyboard';
import { accessible } from '../pages/a11y';
import { BROWSER_LOCALE, type Lang } from '../pages/locale-texts';

const PASSWORD = 'Correct-Horse-42';

for (const lang of ['en', 'pt'] as Lang[]) {
  test.describe(`corporate sign-up (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('sign-up, code from the mail, welcome, teammates, signed-in home', async ({ page, context }) => {
      // The whole journey and the team link after it, with axe on each screen: ~45 s alone, more under load.
      test.slow();
      const ui = new AccountScreens(page, lang);
      const email = uniqueEmail('ada');
      const domain = email.split('@')[1]!;
      await page.goto('/user/signup');
      await expect(page.getByRole('list', { name: ui.commonT('steps.label', { current: 1, total: 4 }) })).toBeVisible();
      await accessible(page, 'signup');
      if (lang === 'en') await screenshots(page, 'account-signup');
      await ui.signUp(email);

      await ui.expectCodeScreen(email);
      await expect(page).toHaveURL(/\/user\/check-token$/);
      await accessible(page, 'code');
      if (lang === 'en') await screenshots(page, 'account-code');
      await ui.typeCode(await mailbox.code(email));

      await expect(page).toHaveURL(/\/user\/welcome$/);
      await expect(page.getByRole('list', { name: ui.commonT('steps.label', { current: 3, total: 4 }) })).toBeVisible();
      // Nothing filled: every field and the terms say so.
      await page.getByRole('button', { name: ui.welcomeT('submit') }).click();
      await expect(page.getByText(ui.errorsT('ACCEPT_TERMS'))).toBeVisible();
      // Each field names what it misses (never "This field is required." three times).
      for (const key of ['firstNameRequired', 'lastNameRequired', 'passwordRequired'])
        await expect(page.getByText(ui.welcomeT(key))).toBeVisible();
      // The password length is checked when the field is left.
      const password = ui.field(ui.welcomeT('password'));
      await password.fill('abc');
      await password.blur();
      await expect(page.getByText(ui.welcomeT('passwordLength'))).toBeVisible();
      // Terms and privacy links follow the page language.
      const config = (await (await page.request.get('/api/config')).json()) as {
        termsUrls: Record<string, string>;
        privacyUrls: Record<string, string>;
      };
      await expect(page.getByRole('link', { name: ui.welcomeT('termsLink') })).toHaveAttribute(
        'href',
        config.termsUrls[lang]!,
      );
      await expect(page.getByRole('link', { name: ui.welcomeT('privacyLink') })).toHaveAttribute(
        'href',
        config.privacyUrls[lang]!,
      );
      await accessible(page, 'welcome');
      if (lang === 'en') await screenshots(page, 'account-welcome');
      await ui.register('Ada', 'Lovelace', PASSWORD);

      await expect(page).toHaveURL(/\/user\/add-teammates$/);
      await expect(page.getByText(`@${domain}`)).toHaveCount(1);
      // The next field appears once three characters are typed in the previous one.
      await ui.teammate(1).fill('gr');
      await expect(ui.teammate(2)).toHaveCount(0);
      await ui.teammate(1).fill('grace');
      await expect(ui.teammate(2)).toBeVisible();
      await ui.teammate(2).fill('grace');
      await page.getByRole('button', { name: ui.teamT('submit') }).click();
      await expect(page.getByText(ui.teamT('duplicate'))).toBeVisible();
      // At the field, and the spec's sentence for the form pointing at it.
      await expect(page.getByText(ui.teamT('MSG_ADD_TEAMMATES_INVALID_EMAIL_ERR'))).toBeVisible();
      // The field in error stays red while the caret is in it to fix it.
      await expect(ui.teammate(2)).toBeFocused();
      await expect
        .poll(() => ui.teammate(2).evaluate((el) => getComputedStyle(el.closest('.field__control')!).borderTopColor))
        .toBe('rgb(255, 75, 54)');
      await ui.teammate(2).fill('alan@other-company.com');
      // A whole address of another domain: no "@domain" suffix glued after it, and who can be invited here.
      await expect(
        page
          .locator('.field')
          .filter({ has: ui.teammate(2) })
          .locator('.field__suffix'),
      ).toHaveCount(0);
      await page.getByRole('button', { name: ui.teamT('submit') }).click();
      await expect(page.getByText(ui.teamT('otherDomain', { domain: `@${email.split('@')[1]}` }))).toBeVisible();
      await ui.teammate(2).fill('alan');
      // The copyable invitation link, with feedback.
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const link = ui.field(ui.teamT('linkLabel'));
      await expect(link).toHaveValue(/\/user\/signup\?inviteToken=/);
      await page.getByRole('button', { name: ui.teamT('copy') }).click();
      await expect(page.getByText(ui.teamT('copied'))).toBeVisible();
      const sharedLink = await link.inputValue();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sharedLink);
      await accessible(page, 'teammates');
      if (lang === 'en') await screenshots(page, 'account-teammates');

      if (lang === 'en') {
        await page.getByRole('button', { name: ui.teamT('submit') }).click();
        await ui.expectHome(email);
        // Both teammates got their invitation mail with a /confirm-invite link.
        await mailbox.link(`grace@${domain}`, /\/confirm-invite\?inviteToken=/);
        await mailbox.link(`alan@${domain}`, /\/confirm-invite\?inviteToken=/);
      } else {
        await page.getByRole('button', { name: ui.teamT('skip') }).click();
        await ui.expectHome(email);
      }
      await expect(page.getByText(ui.homeT('profile.PROFESSIONAL'))).toBeVisible();
      const stored = await page.evaluate(() => ({
        authorization: localStorage.getItem('authorization'),
        user: JSON.parse(localStorage.getItem('user') ?? 'null') as { email: string } | null,
        profiles: JSON.parse(localStorage.getItem('profiles') ?? '[]') as unknown[],
        acting: JSON.parse(localStorage.getItem('acting_profile') ?? 'null') as {
          info: { email: string; first_name: string };
        } | null,
      }));
      expect(stored.authorization).toMatch(/^ey/);
      expect(stored.user?.email).toBe(email);
      expect(stored.profiles).toHaveLength(1);
      expect(stored.acting?.info).toMatchObject({ email, first_name: 'Ada' });
      await accessible(page, 'home');
      if (lang === 'en') await screenshots(page, 'account-home');

      // The same team link is in the account menu's "Invite your teammates", not under a section's content;
      // "Turn off link" kills it, "New link" makes another.
      await expect(page.getByRole('main').getByText(ui.teamT('manageTitle'))).toHaveCount(0);
      await page.getByRole('banner').getByRole('button').click();
      await page.getByRole('menuitem', { name: ui.homeT('menu.invite') }).click();
      const team = page.getByRole('dialog', { name: ui.teamT('manageTitle') });
      const homeLink = team.getByRole('textbox', { name: ui.teamT('linkLabel') });
      await expect(homeLink).toHaveValue(sharedLink);
      const dialog = page.getByRole('dialog', { name: ui.teamT('offTitle') });
      await team.getByRole('button', { name: ui.teamT('turnOff') }).click();
      await expect(dialog.getByText(ui.teamT('offText'))).toBeVisible();
      await dialog.getByRole('button', { name: ui.teamT('turnOff') }).click();
      await expect(team.getByText(ui.teamT('offState'))).toBeVisible();
      await expect(team.getByText(ui.teamT('offDone'))).toBeVisible();
      const oldToken = new URL(sharedLink).searchParams.get('inviteToken');
      const refused = await page.request.post('/api/v2/user', {
        data: { email: uniqueEmail('late').replace(/@.*/, `@${domain}`), invite_token: oldToken },
      });
      expect({ status: refused.status(), code: ((await refused.json()) as { error_code: string }).error_code }).toEqual(
        {
          status: 400,
          code: 'ERR_INVITE_LINK_OFF',
        },
      );
      await team.getByRole('button', { name: ui.teamT('newLink') }).click();
      await page
        .getByRole('dialog', { name: ui.teamT('newTitle') })
        .getByRole('button', { name: ui.teamT('newLink') })
        .click();
      await expect(team.getByText(ui.teamT('newDone'))).toBeVisible();
      await expect(homeLink).toHaveValue(/\/user\/signup\?inviteToken=/);
      expect(await homeLink.inputValue()).not.toBe(sharedLink);
      await accessible(page, 'home, team link renewed');
    });
  });
}

for (const lang of ['en', 'es'] as Lang[]) {
  test.describe(`sign-up refusals (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('a malformed address and a personal address are refused with the spec texts', async ({ page }) => {
      const ui = new AccountScreens(page, lang);
      await page.goto('/user/signup');
      await ui.signUp('not-an-address');
      await expect(page.getByText(ui.signupT('invalidEmail'))).toBeVisible();
      await ui.signUp(`someone.${Date.now()}@gmail.com`);
      await expect(page.getByText(ui.signupT('personalEmail'))).toBeVisible();
      await expect(page).toHaveURL(/\/user\/signup$/);
      await accessible(page, 'signup refused');
      if (lang === 'en') await screenshots(page, 'account-signup-personal');
    });
  });
}

for (const lang of ['en', 'it'] as Lang[]) {
  test.describe(`wrong codes (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('three wrong codes open the max-tries dialog; Send again mails a new code that works', async ({ page }) => {
      const ui = new AccountScreens(page, lang);
      const email = uniqueEmail('wrong');
      await page.goto('/user/signup');
      await ui.signUp(email);
      await ui.expectCodeScreen(email);
      const right = await mailbox.code(email);
      const wrong = right === '000000' ? '111111' : '000000';
      for (let attempt = 1; attempt <= 2; attempt++) {
        await ui.typeCode(wrong);
        await expect(page.getByRole('alert').filter({ hasText: ui.errorsT('INVALID_TOKEN') })).toBeVisible();
        // On error the boxes clear and the focus is back on the first one.
        await ui.expectBoxesEmpty();
        await expect(ui.digit(1)).toBeFocused();
        if (attempt === 1) await accessible(page, 'code with Invalid token');
      }
      await ui.typeCode(wrong);
      const dialog = page.getByRole('dialog', { name: ui.codeT('maxTriesTitle') });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: ui.codeT('resend') })).toBeFocused();
      await accessible(page, 'max tries dialog');
      if (lang === 'en') await screenshots(page, 'account-code-max-tries');
      await dialog.getByRole('button', { name: ui.codeT('resend') }).click();
      await expect(page.getByText(ui.codeT('sent', { email }))).toBeVisible();
      const fresh = await mailbox.code(email, { count: 2 });
      await ui.typeCode(fresh);
      await expect(page).toHaveURL(/\/user\/welcome$/);
    });
  });
}

test.describe('code boxes', () => {
  test('digits only, Backspace clears the previous digit, paste fills all', async ({ page }) => {
    const ui = new AccountScreens(page, 'en');
    const email = uniqueEmail('boxes');
    await page.goto('/user/signup');
    await ui.signUp(email);
    await ui.expectCodeScreen(email);
    await page.keyboard.type('a1b2');
    await expect(ui.digit(1)).toHaveValue('1');
    await expect(ui.digit(2)).toHaveValue('2');
    await expect(ui.digit(3)).toBeFocused();
    await page.keyboard.press('Backspace');
    await expect(ui.digit(2)).toHaveValue('');
    await expect(ui.digit(2)).toBeFocused();
    await page.keyboard.press('Backspace');
    await expect(ui.digit(1)).toHaveValue('');
    await expect(ui.digit(1)).toBeFocused();
    const code = await mailbox.code(email);
    await ui.digit(1).focus();
    await page.evaluate(
      (text) => {
        const data = new DataTransfer();
        data.setData('text/plain', text);
        document.activeElement?.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
      },
      ` ${code.slice(0, 3)}-${code.slice(3)} `,
    );
    await expect(page).toHaveURL(/\/user\/welcome$/);
  });

  test('"Back" opens sign-up with the address; signing up again (409) returns to the code screen', async ({ page }) => {
    const ui = new AccountScreens(page, 'en');
    const email = uniqueEmail('back');
    await page.goto('/user/signup');
    await ui.signUp(email);
    await ui.expectCodeScreen(email);
    // One way back (no "Back" beside it doing the same): the address comes along into the field.
    await expect(page.getByRole('button', { name: 'Back' })).toHaveCount(0);
    await page.getByRole('link', { name: ui.codeT('back') }).click();
    await expect(page).toHaveURL(/\/user\/signup$/);
    await expect(ui.field(ui.signupT('email'))).toHaveValue(email);
    // Signing up again with the waiting address: the server answers 409 with a new code, the screen follows.
    await ui.signUp(email);
    await ui.expectCodeScreen(email);
    await ui.typeCode(await mailbox.code(email, { count: 2 }));
    await expect(page).toHaveURL(/\/user\/welcome$/);
  });
});

test('keyboard only: sign-up, code, welcome with show/hide and terms, teammates, home', async ({ page }) => {
  const ui = new AccountScreens(page, 'en');
  const email = uniqueEmail('keys');
  const domain = email.split('@')[1]!;
  await page.goto('/user/signup');
  await tabTo(page, ui.field(ui.signupT('email')));
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  // The code screen puts the focus on its first box (spec), not on its heading.
  await ui.expectCodeScreen(email);
  await page.keyboard.type(await mailbox.code(email), { delay: 30 });

  await expect(page).toHaveURL(/\/user\/welcome$/);
  // The caret waits in the first field of each new form.
  await expect(ui.field(ui.welcomeT('firstName'))).toBeFocused();
  await page.keyboard.type('Ada');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Lovelace');
  await page.keyboard.press('Tab');
  const password = ui.field(ui.welcomeT('password'));
  await expect(password).toBeFocused();
  await page.keyboard.type(PASSWORD);
  // Show/hide by keyboard: the toggle comes next in the Tab order and keeps its name.
  await page.keyboard.press('Tab');
  const toggle = page.getByRole('button', { name: ui.commonT('password.show') });
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Space');
  await expect(password).toHaveAttribute('type', 'text');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Enter');
  await expect(password).toHaveAttribute('type', 'password');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  const terms = page.getByRole('checkbox');
  await tabTo(page, terms);
  await page.keyboard.press('Space');
  await expect(terms).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: ui.welcomeT('submit') }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/user\/add-teammates$/);
  await expect(ui.teammate(1)).toBeFocused();
  await page.keyboard.type('not valid');
  await tabTo(page, ui.teammate(2));
  await page.keyboard.type('alan');
  await tabTo(page, page.getByRole('button', { name: ui.teamT('submit') }));
  await page.keyboard.press('Enter');
  // The invalid field says so and gets the focus back; it is fixed by keyboard.
  await expect(page.getByText(ui.teamT('invalid'))).toBeVisible();
  await expect(ui.teammate(1)).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('grace');
  await page.keyboard.press('Enter');
  await ui.expectHome(email);
  await mailbox.link(`grace@${domain}`, /\/confirm-invite\?inviteToken=/);
});

test.describe('a welcome-step session on signed-in pages', () => {
  test('/app, / and the teammates step lead to the welcome step, never to an error or the login', async ({ page }) => {
    const ui = new AccountScreens(page, 'en');
    const email = uniqueEmail('halfway');
    await page.goto('/user/signup');
    await ui.signUp(email);
    await ui.typeCode(await mailbox.code(email));
    await expect(page).toHaveURL(/\/user\/welcome$/);

    // The session the code step handed out opens the welcome step alone (the server refuses it elsewhere).
    for (const address of ['/app', '/']) {
      await page.goto(address);
      await expect(page).toHaveURL(/\/user\/welcome$/);
      await expect(page.getByRole('button', { name: ui.welcomeT('submit') })).toBeVisible();
    }
    // A page that asks the server first: its 403 ERR_REGISTRATION_INCOMPLETE leads there too
    // (the page is left at once: the answer's body is gone by then, its status and address remain).
    const refused = page.waitForResponse((r) => r.url().includes('/api/invite/url'));
    await page.goto('/user/add-teammates');
    expect((await refused).status()).toBe(403);
    await expect(page).toHaveURL(/\/user\/welcome$/);
    await expect(page.getByRole('button', { name: ui.welcomeT('submit') })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);

    // Finishing the step still works with that session: the signed-in home follows.
    await ui.register('Half', 'Way', PASSWORD);
    await expect(page).toHaveURL(/\/user\/add-teammates$/);
    await page.goto('/app');
    await expect(page).toHaveURL(/\/app$/);
  });
});

test.describe('"Email address already in use!"', () => {
  test('its links take Tab and click, and the forms they open start with the address', async ({ page, request }) => {
    const ui = new AccountScreens(page, 'en');
    const { email } = await createAccount(request);
    await page.goto('/user/signup');
    await ui.signUp(email);
    const alert = page.getByRole('alert').filter({ hasText: ui.errorsT('ERR_EMAIL_IN_USE') });
    await expect(alert).toBeVisible();
    // Tab from the address: the field blurs, the message and its links stay (they used to vanish).
    await ui.field(ui.signupT('email')).focus();
    await page.keyboard.press('Tab');
    const signIn = alert.getByRole('link', { name: ui.signupT('inUseLogin') });
    const reset = alert.getByRole('link', { name: ui.signupT('inUseReset') });
    await expect(signIn).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(reset).toBeFocused();
    await expect(alert).toBeVisible();
    // Contrast of the links on the message's pink, with the rest of the screen.
    await accessible(page, 'signup in use');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/user\/recovery-password$/);
    await expect(ui.field(ui.recoveryT('email'))).toHaveValue(email);

    // Back to sign-up: the address is there; the same message, and a click on "Sign in".
    await page.goto('/user/signup');
    await expect(ui.field(ui.signupT('email'))).toHaveValue(email);
    await page.getByRole('button', { name: ui.signupT('submit'), exact: true }).click();
    await alert.getByRole('link', { name: ui.signupT('inUseLogin') }).click();
    await expect(page).toHaveURL(/\/user\/login$/);
    await expect(ui.field(ui.loginT('email'))).toHaveValue(email);
  });
});
