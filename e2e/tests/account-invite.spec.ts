import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect, mailbox, screenshots, createAccount, expectAccessible } from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { AccountScreens } from '../pages/account';
import { accessible, screenSettled } from '../pages/a11y';
import { BROWSER_LOCALE, type Lang } from '../pages/locale-texts';
import { openDatabase } from '../../apps/server/src/db/database';
import { DATA_DIR } from '../env';
import { boxOf } from '../pages/box';

const personalEmail = () => `someone.${randomBytes(4).toString('hex')}@gmail.com`;
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** JWT-shaped: the page reads the validity without verifying (the server verifies on sign-up). */
const forged = (payload: Record<string, unknown>) =>
  `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}.c2lnbmF0dXJl`;

/** The invite page's progress step and its wait on the success screen (contract PROGRESS_INTERVAL_MS, REDIRECT_AFTER_MS). */
const PROGRESS_STEP_MS = 500;
const REDIRECT_AFTER_MS = 3_000;

/** Holds the invite's acceptance (the sign-up POST with its token) until `release`. */
function holdAccept(page: Page): { release: () => Promise<void> } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  void page.route('**/v2/user', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await released;
    return route.fallback();
  });
  return {
    release: async () => {
      release();
      await page.unroute('**/v2/user');
    },
  };
}

/**
 * Runs `check` while the page's clock is paused, moving it on a millisecond at a time (axe waits with
 * short timeouts between its rules) and never by more than `budgetMs`: a page timer due later cannot
 * fire, however long the check takes on a loaded machine.
 */
async function timeStill(page: Page, budgetMs: number, check: () => Promise<void>): Promise<void> {
  let done = false;
  const run = check().finally(() => (done = true));
  for (let spent = 0; !done; spent++) {
    if (spent >= budgetMs) throw new Error(`the check needed more than ${budgetMs} ms of the page's clock`);
    await page.clock.runFor(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await run;
}

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
      // Each state stays on screen while it is checked: the acceptance is held until the validating screen
      // was, and the page's clock stands still on the success screen (its 3 s before moving on).
      const accept = holdAccept(page);
      await page.clock.install();
      await page.goto(link);
      await expect(ui.heading(ui.inviteT('validatingTitle'))).toBeVisible();
      // Whom the invitation is for: the address, whole, on its own line.
      await expect(page.getByTestId('address')).toHaveText(email);
      const bar = page.getByRole('progressbar', { name: ui.inviteT('progressLabel') });
      await expect(bar).toHaveAttribute('aria-valuenow', /^[1-9]0$/);
      await accessible(page, 'invite validating');
      if (lang === 'en') await screenshots(page, 'account-invite-validating');
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
      await accept.release();
      // The progress moves on a step at a time until the answer shows as success.
      const success = ui.heading(ui.inviteT('successTitle'));
      await expect(async () => {
        await page.clock.runFor(PROGRESS_STEP_MS);
        await expect(success).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 20_000 });
      await expect(page.getByText(ui.inviteT('successTextWelcome'))).toBeVisible();
      // Done: the bar gives way to the outcome, it does not stand full beside it.
      await expect(bar).toHaveCount(0);
      await timeStill(page, REDIRECT_AFTER_MS - 1_000, async () => {
        await screenSettled(page);
        await expectAccessible(page, 'invite success');
        if (lang === 'en') await screenshots(page, 'account-invite-success');
      });
      await expect(success).toBeVisible();
      // After 3 s the invitee goes on to set a name and password.
      await page.clock.runFor(REDIRECT_AFTER_MS);
      await expect(page).toHaveURL(/\/user\/welcome$/, { timeout: 10_000 });
      await page.clock.resume();
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

    test('an expired invitation for a personal address says whom to ask and offers no sign-up, in one steady card', async ({
      page,
    }) => {
      const ui = new AccountScreens(page, lang);
      const email = personalEmail();
      const link = await personalInvite(email, lang);
      // Expired on the server only (its row, not a wait): the page learns it when it accepts.
      const db = openDatabase({ dataDir: DATA_DIR });
      try {
        await db.kysely
          .updateTable('invites')
          .set({ expires_at: Date.now() - 1 })
          .where('email', '=', email)
          .execute();
      } finally {
        await db.close();
      }
      await page.goto(link);
      const card = page.locator('.invite-card');
      await expect(ui.heading(ui.inviteT('validatingTitle'))).toBeVisible();
      const checking = await boxOf(card);
      await expect(ui.heading(ui.inviteT('expiredTitle'))).toBeVisible({ timeout: 15_000 });
      // An administrator's invitation: the person is sent to that administrator, not to a sign-up that refuses them.
      await expect(page.getByText(ui.inviteT('expiredPersonalAdmin'))).toBeVisible();
      await expect(page.getByRole('link', { name: ui.inviteT('toSignup') })).toHaveCount(0);
      await expect(page.getByRole('link', { name: ui.inviteT('toLogin') })).toBeVisible();
      const expired = await boxOf(card);
      expect(Math.abs(expired.y - checking.y)).toBeLessThanOrEqual(1);
      expect(expired.height).toBeGreaterThanOrEqual(checking.height - 1);
      await accessible(page, 'invite expired, personal address');
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
      // A broken link leads on: the card says to ask for a new link; sign-in is the button, sign-up a quiet link.
      await expect(page.getByText(ui.inviteT('brokenNext'))).toBeVisible();
      const signIn = page.getByRole('link', { name: ui.inviteT('toLogin'), exact: true });
      await expect(signIn).toHaveAttribute('href', '/user/login');
      await expect(signIn).toHaveClass(/\bbtn--primary\b/);
      const signUp = page.getByRole('link', { name: ui.inviteT('toSignup'), exact: true });
      await expect(signUp).toHaveAttribute('href', '/user/signup');
      await expect(signUp).not.toHaveClass(/\bbtn\b/);
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
