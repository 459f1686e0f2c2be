import { readFileSync } from 'node:fs';
import { test, expect, createAccount, mailbox, signInWithStorage, screenshots } from '../fixtures/test';
import { accessible } from '../pages/a11y';
import { tabTo } from '../pages/keyboard';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';
import { SecurityScreens, VirtualAuthenticator, appCode, staleProofs } from '../pages/security';

/**
 * Passkeys and two-step verification in Chromium, on the server whose PUBLIC_URL is
 * http://localhost:… (a relying-party ID must be a host name, not an address: playwright.config.ts's
 * 'security' project). Passkeys are made by the DevTools virtual authenticator (internal transport, user
 * verification on); authenticator-app codes are computed from the key the screen shows, as the app does.
 */
test.describe.configure({ mode: 'serial' });

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`security (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('a passkey: added on the home, renamed, signs in from the button and from autofill, removed', async ({
      page,
      request,
    }) => {
      const account = await createAccount(request);
      const authenticator = await VirtualAuthenticator.attach(page);
      const ui = new SecurityScreens(page, lang);
      await signInWithStorage(page, account, '/app/security');
      await expect(ui.panel.getByText(ui.secT('passkeys.none'))).toBeVisible();
      const name = await ui.addPasskey();
      expect(name).toMatch(/Chrom/);
      await expect(ui.passkey(name)).toContainText(ui.secT('passkeys.neverUsed'));
      const [credential] = await authenticator.credentials();
      expect(credential?.rpId).toBe('localhost');
      await ui.renamePasskey(name, `Work laptop ${lang}`);
      await accessible(page, 'security panel with a passkey');
      await screenshots(page, `security-passkey-${lang}`);

      // Autofill (conditional mediation): the login screen asks for passkeys as it shows; the authenticator
      // answers with the one it holds, as a person picking it in the e-mail field's list would.
      await ui.signOut({ passkeyAutofill: true });
      await ui.expectHome(account.email);
      await ui.openSection('security');
      await expect(ui.passkey(`Work laptop ${lang}`)).not.toContainText(ui.secT('passkeys.neverUsed'));
      const afterAutofill = (await authenticator.credentials())[0]?.signCount ?? 0;
      expect(afterAutofill).toBeGreaterThan(credential?.signCount ?? 0);

      // The button, in a browser without passkey autofill: no password, no second step.
      await page.addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
      });
      await page.reload();
      await ui.signOut();
      await ui.signInWithPasskey();
      await ui.expectHome(account.email);
      expect((await authenticator.credentials())[0]?.signCount ?? 0).toBeGreaterThan(afterAutofill);
      await ui.openSection('security');

      await ui.removePasskey(`Work laptop ${lang}`);
      await expect(ui.panel.getByText(ui.secT('passkeys.none'))).toBeVisible();
      // The authenticator still holds it; the server no longer accepts it.
      await ui.signOut();
      await ui.signInWithPasskey();
      await expect(page.getByRole('alert')).toHaveText(texts(lang, 'errors')('ERR_PASSKEY_UNKNOWN'));
      await expect(page).toHaveURL(/\/user\/login$/);
    });

    test('a session without a recent proof: adding or removing a passkey asks for it first; "this wasn\'t me" undoes the change', async ({
      page,
      request,
    }) => {
      const account = await createAccount(request);
      await VirtualAuthenticator.attach(page);
      const ui = new SecurityScreens(page, lang);
      const notMeT = texts(lang, 'notMe');
      await signInWithStorage(page, account, '/app/security');
      await expect(ui.panel.getByText(ui.secT('passkeys.none'))).toBeVisible();
      await staleProofs(account.email);
      await ui.button(ui.secT('passkeys.add')).click();
      const dialog = page.getByRole('dialog', { name: ui.secT('proof.title') });
      await expect(dialog).toBeVisible();
      await accessible(page, 'fresh-proof dialog');
      await screenshots(page, `fresh-proof-${lang}`);
      await dialog.getByRole('button', { name: ui.secT('proof.confirm'), exact: true }).click();
      await expect(dialog.getByRole('alert')).toHaveText(ui.secT('proof.requiredPassword'));
      await dialog.getByLabel(ui.secT('proof.password'), { exact: true }).fill(account.password);
      await dialog.getByRole('button', { name: ui.secT('proof.confirm'), exact: true }).click();
      // Proved: the dialog closes and the passkey is added without a second click.
      await expect(dialog).toHaveCount(0);
      await expect(ui.panel.getByRole('listitem')).toHaveCount(1);
      // Removing it is a factor change too: the same proof first, then the removal without a second click.
      await staleProofs(account.email);
      await ui.panel
        .getByRole('listitem')
        .getByRole('button')
        .filter({ hasText: new RegExp(`^${ui.secT('passkeys.remove')}$`) })
        .click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: ui.secT('passkeys.removeConfirm'), exact: true })
        .click();
      await expect(dialog).toBeVisible();
      await dialog.getByLabel(ui.secT('proof.password'), { exact: true }).fill(account.password);
      await dialog.getByRole('button', { name: ui.secT('proof.confirm'), exact: true }).click();
      await expect(dialog).toHaveCount(0);
      await expect(ui.panel.getByText(ui.secT('passkeys.none'))).toBeVisible();

      const mail = await mailbox.waitFor(account.email, { match: /\/security\/not-me#/ });
      const link = /https?:\/\/\S+\/security\/not-me#[A-Za-z0-9_-]+/.exec(mail.text)?.[0] ?? '';
      await page.goto(link);
      // The token leaves the address bar at once.
      await expect(page).toHaveURL(/\/security\/not-me$/);
      await expect(page.getByRole('heading', { name: notMeT('title') })).toBeVisible();
      await accessible(page, '"this wasn\'t me" page');
      await screenshots(page, `not-me-${lang}`);
      await page.getByRole('button', { name: notMeT('undo'), exact: true }).click();
      await expect(page.getByRole('heading', { name: notMeT('doneTitle') })).toBeVisible();
      await screenshots(page, `not-me-done-${lang}`);
      // Every session ended (this browser's too): the home asks to sign in again.
      await page.goto('/app');
      await expect(page).toHaveURL(/\/user\/login/);
    });

    test('two-step verification: turned on with the QR key, a code at login, a reused code refused, a recovery code once', async ({
      page,
      request,
    }) => {
      const account = await createAccount(request);
      const ui = new SecurityScreens(page, lang);
      await signInWithStorage(page, account, '/app/security');
      const { secret, codes } = await ui.turnOnTwoStep();
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      // A card of two columns of five, and the heading that took the focus shows no ring (it is no control).
      const corners = await page
        .getByTestId('recovery-codes')
        .getByRole('listitem')
        .evaluateAll((items) => items.map((item) => item.getBoundingClientRect()).map((r) => [r.left, r.top]));
      expect(new Set(corners.map(([left]) => Math.round(left ?? 0))).size).toBe(2);
      expect(new Set(corners.map(([, top]) => Math.round(top ?? 0))).size).toBe(5);
      const codesTitle = ui.panel.getByRole('heading', { name: ui.secT('codes.title') });
      expect(
        await codesTitle.evaluate((h) => [getComputedStyle(h).boxShadow, getComputedStyle(h).outlineStyle]),
      ).toEqual(['none', 'none']);
      const download = page.waitForEvent('download');
      await ui.button(ui.secT('codes.download')).click();
      const file = await (await download).path();
      expect(readFileSync(file, 'utf8').split('\n')).toEqual(expect.arrayContaining(codes));
      await accessible(page, 'recovery codes');
      await screenshots(page, `security-recovery-codes-${lang}`);
      await ui.button(ui.secT('codes.done')).click();
      await expect(ui.panel.getByText(ui.secT('totp.on'), { exact: true })).toBeVisible();

      // Password, then the app's code.
      await ui.signOut();
      await ui.logIn(account.email, account.password);
      await ui.expectCodeStep(account.email);
      await accessible(page, 'code step');
      await screenshots(page, `login-code-step-${lang}`);
      // The code the confirmation used is spent; the app's next one is not.
      const code = appCode(secret, 1);
      await ui.answerWithApp(code);
      await ui.expectHome(account.email);

      // The same code again: refused, the boxes cleared, still on the code step.
      await ui.signOut();
      await ui.logIn(account.email, account.password);
      await ui.expectCodeStep(account.email);
      await ui.answerWithApp(code);
      await expect(page.getByRole('alert')).toHaveText(texts(lang, 'errors')('ERR_SECOND_STEP_INVALID'));
      await expect(page.getByRole('textbox', { name: ui.stepT('digit', { n: 1, total: 6 }) })).toHaveValue('');

      // A recovery code instead: works once.
      await ui.answerWithRecoveryCode(codes[0] ?? '');
      await ui.expectHome(account.email);
      await ui.signOut();
      await ui.logIn(account.email, account.password);
      await ui.expectCodeStep(account.email);
      await ui.answerWithRecoveryCode(codes[0] ?? '');
      // A used recovery code is refused in the words of recovery codes, not of the app.
      await expect(page.getByRole('alert')).toHaveText(texts(lang, 'loginStep')('wrongRecovery'));
      // Said at the field, which is marked invalid (and stays red with the caret in it).
      await expect(ui.page.getByRole('textbox', { name: ui.stepT('recovery') })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      await ui.page.getByRole('textbox', { name: ui.stepT('recovery') }).fill(codes[1] ?? '');
      await ui.page.getByRole('button', { name: ui.stepT('submit'), exact: true }).click();
      await ui.expectHome(account.email);
      await ui.openSection('security');
      await expect(ui.panel).toContainText(ui.secT('totp.codesLeft_other', { count: 8 }));
    });
  });
}

test('keyboard only: a passkey added, renamed and removed, two-step verification turned on', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  await VirtualAuthenticator.attach(page);
  const ui = new SecurityScreens(page);
  await signInWithStorage(page, account, '/app/security');
  await expect(ui.panel.getByText(ui.secT('passkeys.none'))).toBeVisible();
  await tabTo(page, ui.button(ui.secT('passkeys.add')), 80);
  await page.keyboard.press('Enter');
  const item = ui.panel.getByRole('listitem');
  await expect(item).toHaveCount(1);
  const name = ((await item.getByRole('heading').textContent()) ?? '').trim();
  await tabTo(page, ui.button(ui.secT('passkeys.renameOf', { name })));
  await page.keyboard.press('Enter');
  const field = ui.panel.getByRole('textbox', { name: ui.secT('passkeys.name') });
  await expect(field).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Desk');
  await page.keyboard.press('Enter');
  await expect(ui.passkey('Desk')).toBeVisible();
  await tabTo(page, ui.button(ui.secT('passkeys.removeOf', { name: 'Desk' })));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await tabTo(page, dialog.getByRole('button', { name: ui.secT('passkeys.removeConfirm'), exact: true }));
  await page.keyboard.press('Enter');
  await expect(ui.status).toHaveText(ui.secT('passkeys.removed', { name: 'Desk' }));
  await expect(ui.panel.getByRole('heading', { name: ui.secT('title'), exact: true })).toBeFocused();

  await tabTo(page, ui.button(ui.secT('totp.turnOn')));
  await page.keyboard.press('Enter');
  const secret = ((await ui.panel.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  await tabTo(page, ui.panel.getByRole('textbox', { name: ui.secT('totp.digit', { n: 1, total: 6 }), exact: true }));
  await page.keyboard.type(appCode(secret), { delay: 30 });
  await expect(ui.panel.getByRole('heading', { name: ui.secT('codes.title') })).toBeFocused();
  await tabTo(page, ui.button(ui.secT('codes.done')));
  await page.keyboard.press('Enter');
  await expect(ui.panel.getByText(ui.secT('totp.on'), { exact: true })).toBeVisible();
});
