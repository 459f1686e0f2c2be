import { randomBytes } from 'node:crypto';
import { test, expect, mailbox, screenshots, createAccount } from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { AccountScreens } from '../pages/account';
import { accessible } from '../pages/a11y';
import { BROWSER_LOCALE, type Lang } from '../pages/locale-texts';

const personalEmail = () => `someone.${randomBytes(4).toString('hex')}@gmail.com`;
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** JWT-shaped: the page reads the validity without verifying (the server verifies on sign-up). */
const forged = (payload: Record<string, unknown>) =>
  `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}.c2lnbmF0dXJl`;

/** Queues a personal invitation with the admin CLI and returns the /confirm-invite link from the delivered mail. */
async function personalInvite(email: string, lang: Lang): Promise<string> {
  admin('invite', email, '--language', lang);
  return mailbox.link(email, /\/confirm-invite\?inviteToken=/);
}

for (const lang of ['pt', 'en'] as Lang[]) {
  test.describe(`invite acceptance (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('a personal address accepts its invite, registers, lands on the home; the link then says already accepted', async ({
      page,
    }) => {
      const ui = new AccountScreens(page, lang);
      const email = personalEmail();
      const link = await personalInvite(email, lang);
      await page.goto(link);
      await expect(ui.heading(ui.inviteT('validatingTitle'))).toBeVisible();
      // Whom the invitation is for: the address, whole, on its own line.
      await expect(page.getByTestId('address')).toHaveText(email);
      const bar = page.getByRole('progressbar', { name: ui.inviteT('progressLabel') });
      await expect(bar).toHaveAttribute('aria-valuenow', /^[1-9]0$/);
      await accessible(page, 'invite validating');
      if (lang === 'en') await screenshots(page, 'account-invite-validating');
      await expect(ui.heading(ui.inviteT('successTitle'))).toBeVisible({ timeout: 15_000 });
      await expect(page.getByText(ui.inviteT('successTextWelcome'))).toBeVisible();
      await accessible(page, 'invite success');
      if (lang === 'en') await screenshots(page, 'account-invite-success');
      // After 3 s the invitee goes on to set a name and password.
      await expect(page).toHaveURL(/\/user\/welcome$/, { timeout: 10_000 });
      await ui.register('Maria', 'Silva', 'Personal-Pass-5');
      await ui.expectHome(email);
      await expect(page.getByText(ui.homeT('profile.PERSONAL'))).toBeVisible();
      // Inviting teammates is for professional profiles only: a personal one is sent on to the main app.
      await page.goto('/user/add-teammates');
      await ui.expectHome(email);

      await page.goto(link);
      await expect(ui.heading(ui.inviteT('acceptedTitle'))).toBeVisible({ timeout: 15_000 });
      await accessible(page, 'invite already accepted');
      if (lang === 'en') await screenshots(page, 'account-invite-accepted');
    });

    test('expired or validity-less invitations show the expired message; a broken one the error', async ({ page }) => {
      const ui = new AccountScreens(page, lang);
      await page.goto(
        `/confirm-invite?inviteToken=${forged({ email: personalEmail(), exp: Math.floor(Date.now() / 1000) - 60 })}`,
      );
      await expect(ui.heading(ui.inviteT('expiredTitle'))).toBeVisible();
      await accessible(page, 'invite expired');
      if (lang === 'en') await screenshots(page, 'account-invite-expired');
      await page.goto(`/confirm-invite?inviteToken=${forged({ email: personalEmail() })}`);
      await expect(ui.heading(ui.inviteT('expiredTitle'))).toBeVisible();
      // A well-formed but forged token reaches the server, which refuses it: title plus the server's message.
      await page.goto(
        `/confirm-invite?inviteToken=${forged({ email: personalEmail(), exp: Math.floor(Date.now() / 1000) + 600 })}`,
      );
      await expect(ui.heading(ui.inviteT('errorTitle'))).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('alert')).toHaveText(ui.errorsT('ERR_INVITE_INVALID'));
      await page.goto('/confirm-invite');
      await expect(ui.heading(ui.inviteT('errorTitle'))).toBeVisible();
      await expect(page.getByText(ui.inviteT('invalidText'))).toBeVisible();
      // A dead end leads on: sign-up and sign-in, as buttons.
      for (const [key, path] of [
        ['toSignup', '/user/signup'],
        ['toLogin', '/user/login'],
      ] as const) {
        const way = page.getByRole('link', { name: ui.inviteT(key), exact: true });
        await expect(way).toHaveAttribute('href', path);
        await expect(way).toHaveClass(/\bbtn\b/);
      }
      await accessible(page, 'invite error');
    });
  });
}

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`team invitation (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('the invitee reads who invites and to which team, then accepts and is offered to invite others', async ({
      page,
      request,
    }) => {
      const ui = new AccountScreens(page, lang);
      const inviter = await createAccount(request);
      const domain = inviter.email.split('@')[1]!;
      const teammate = `grace@${domain}`;
      const invited = await request.post('/api/invite/teammates', {
        headers: { authorization: `Bearer ${inviter.token}` },
        data: { emails: [teammate], language: lang },
      });
      expect(invited.status(), await invited.text()).toBe(200);
      await page.goto(await mailbox.link(teammate, /\/confirm-invite\?inviteToken=/));
      await expect(ui.heading(ui.inviteT('validatingTitle'))).toBeVisible();
      // Who invites (by name, never by address) and to which team, while it is being accepted.
      const from = page.getByText(ui.inviteT('fromInviter', { name: 'Ada Lovelace', team: domain }));
      await expect(from).toBeVisible();
      await expect(page.getByText(inviter.email)).toHaveCount(0);
      await accessible(page, 'invite validating, inviter named');
      await screenshots(page, `account-invite-from-${lang}`);
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshots(page, `account-invite-from-${lang}-dark`);
      await page.emulateMedia({ colorScheme: 'light' });
      // Accepted, then on to the welcome step (the screenshots may have taken the success screen's 3 s).
      await expect(page).toHaveURL(/\/user\/welcome$/, { timeout: 20_000 });
      await ui.register('Grace', 'Hopper', 'Teammate-Pass-1');
      await expect(page).toHaveURL(/\/user\/add-teammates$/);
    });
  });
}

for (const lang of ['en', 'it'] as Lang[]) {
  test.describe(`personal sign-up with an invite (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('the sign-up screen accepts a personal address that carries its invite', async ({ page }) => {
      const ui = new AccountScreens(page, lang);
      const email = personalEmail();
      const link = new URL(await personalInvite(email, lang));
      await page.goto(`/user/signup?inviteToken=${link.searchParams.get('inviteToken')}`);
      await expect(page.getByText(ui.signupT('leadInvite'))).toBeVisible();
      await ui.signUp(email);
      await expect(page).toHaveURL(/\/user\/welcome$/);
      await ui.register('Luca', 'Rossi', 'Personal-Pass-6');
      await ui.expectHome(email);
    });
  });
}

test('team link: a personal address is still refused, a colleague of the domain gets a code', async ({
  page,
  request,
}) => {
  const ui = new AccountScreens(page, 'en');
  const inviter = await createAccount(request);
  const url = await request.get('/api/invite/url', { headers: { authorization: `Bearer ${inviter.token}` } });
  const { url: teamLink } = (await url.json()) as { url: string };
  await page.goto(new URL(teamLink).pathname + new URL(teamLink).search);
  await ui.signUp(personalEmail());
  await expect(page.getByText(ui.signupT('personalEmail'))).toBeVisible();
  // A colleague of the same domain signs up through the team link and gets a code.
  const colleague = `alan@${inviter.email.split('@')[1]}`;
  await ui.signUp(colleague);
  await ui.expectCodeScreen(colleague);
});
