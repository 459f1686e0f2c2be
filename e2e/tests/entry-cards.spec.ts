import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { test, expect, mailbox, uniqueEmail, createAccount } from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { AccountScreens } from '../pages/account';
import { SecurityScreens, appCode } from '../pages/security';
import { BROWSER_LOCALE, texts } from '../pages/locale-texts';
import { BASE_URL, WORK_DIR } from '../env';
import { startSamlIdp, type TestSamlIdp } from '../../apps/server/test/idp/saml';

/** What a person sees of the entry screens' cards and rows: one box, one axis, nothing moving. */

const rect = async (target: Locator) => {
  const b = await target.boundingBox();
  expect(b).not.toBeNull();
  return b!;
};

/** The single card's place and width: the same on every entry page, give or take a pixel of rounding. */
async function cardBox(page: Page, path: string) {
  await page.goto(path);
  const card = page.locator('.card.simple-page');
  // The invitation's check ends in a state of its own: measured once it has.
  if (path.startsWith('/confirm-invite')) await expect(card.getByRole('link').first()).toBeVisible();
  await expect(card.getByRole('heading', { level: 1 })).toBeVisible();
  const b = await rect(card);
  return { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
]) {
  test(`one card box for the invitation, /auth and a missing page at ${size.width}; the primary way first`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const reference = await cardBox(page, '/no-such-page');
    for (const path of ['/confirm-invite', '/auth?token=not-a-token']) {
      const box = await cardBox(page, path);
      for (const key of ['x', 'y', 'width'] as const)
        expect(
          Math.abs(box[key] - reference[key]),
          `${path} ${key}: ${box[key]} vs ${reference[key]}`,
        ).toBeLessThanOrEqual(1);
      // No tall blank under a short state: the single card's floor height, or its content and padding.
      const blank = await page
        .locator('.card.simple-page')
        .evaluate(
          (card) =>
            card.getBoundingClientRect().bottom -
            card.lastElementChild!.getBoundingClientRect().bottom -
            parseFloat(getComputedStyle(card).paddingBottom),
        );
      if (box.height > reference.height + 1) expect(blank, path).toBeLessThanOrEqual(1);
    }
    // A broken invitation link: sign-in is the one button (a new link comes from the inviter, as the card
    // says); sign-up a quiet link under it, in reading order and on screen.
    await page.goto('/confirm-invite');
    const card = page.locator('.invite-card');
    const signInWay = card.getByRole('link', { name: 'Sign in', exact: true });
    const signUpWay = card.getByRole('link', { name: 'Sign up', exact: true });
    await expect(card.getByRole('link')).toHaveText(['Sign in', 'Sign up']);
    await expect(signInWay).toHaveClass(/btn--primary/);
    await expect(signUpWay).not.toHaveClass(/\bbtn\b/);
    const [signIn, signUp] = [await rect(signInWay), await rect(signUpWay)];
    expect(signIn.y).toBeLessThan(signUp.y);
  });
}

test('sign-up at 1280: the short form sits in the middle of the steady card, not above a blank', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/user/signup');
  const column = await rect(page.locator('.user-layout__form'));
  const form = await rect(page.locator('[data-form="signup"]'));
  const above = form.y - column.y;
  const below = column.y + column.height - (form.y + form.height);
  expect(Math.abs(above - below), `above ${above}, below ${below}`).toBeLessThanOrEqual(2);
  // The spare room split, not left as one blank under the form (it was 2/3 of the column before).
  expect(below).toBeLessThan(column.height / 3);
});

test('the passkey link while the browser asks: says so (also to screen readers), and the row does not move', async ({
  page,
}) => {
  // The passkey ceremony held at its first step (the server's options, answered once the row is
  // measured): the link stays in its waiting state for as long as the test looks at it.
  await page.goto('/user/login');
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/passkey/options', async (route) => {
    await held;
    await route.continue().catch(() => undefined);
  });
  const passkey = page.getByRole('button', { name: 'Sign in with a passkey' });
  const forgot = page.getByRole('link', { name: 'Forgot your password?' });
  const before = [await rect(passkey), await rect(forgot)];
  await passkey.click();
  await expect(page.getByRole('status').filter({ hasText: 'Waiting for your passkey…' })).toBeAttached();
  const pending = page.locator('.login__passkey');
  await expect(pending).toHaveAccessibleName('Waiting for your passkey…');
  const after = [await rect(pending), await rect(forgot)];
  for (const [i, box] of after.entries()) {
    expect(Math.abs(box.y - before[i]!.y)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(box.x + box.width - (before[i]!.x + before[i]!.width))).toBeLessThanOrEqual(0.5);
  }
  release();
});

test('the two-step sign-in: the code boxes on the heading’s left axis, as on the code screen', async ({
  page,
  request,
}) => {
  const ui = new SecurityScreens(page, 'en');
  const account = await createAccount(request);
  const auth = { authorization: `Bearer ${account.token}` };
  const setup = await request.post('/api/v2/user/totp/setup', { headers: auth });
  const { secret } = (await setup.json()) as { secret: string };
  const on = await request.post('/api/v2/user/totp/enable', { headers: auth, data: { code: appCode(secret, -1) } });
  expect(on.status(), await on.text()).toBe(200);
  await page.goto('/user/login');
  await new AccountScreens(page).logIn(account.email, account.password);
  await ui.expectCodeStep(account.email);
  const heading = await rect(page.getByRole('heading', { name: 'Two-step verification', level: 1 }));
  const first = await rect(page.getByLabel('Digit 1 of 6'));
  expect(Math.abs(first.x - heading.x)).toBeLessThanOrEqual(2);
});

test('the welcome step: the terms message starts under the label’s text, not under the box', async ({ page }) => {
  const ui = new AccountScreens(page);
  const email = uniqueEmail('terms-axis');
  await page.goto('/user/signup');
  await ui.signUp(email);
  await ui.expectCodeScreen(email);
  await ui.typeCode(await mailbox.code(email));
  await expect(ui.heading(ui.welcomeT('title'))).toBeVisible();
  await page.getByRole('button', { name: ui.welcomeT('submit') }).click();
  const terms = page.getByRole('checkbox', { name: /terms of use/i });
  await expect(terms).toHaveAttribute('aria-invalid', 'true');
  const messageId = (await terms.getAttribute('aria-describedby'))!;
  // Where the text starts: the box's left edge plus its padding.
  const textStart = (target: Locator) =>
    target.evaluate((el) => el.getBoundingClientRect().left + parseFloat(getComputedStyle(el).paddingInlineStart));
  const message = await textStart(page.locator(`[id="${messageId}"]`));
  const label = await textStart(page.locator(`label[for="${await terms.getAttribute('id')}"]`));
  expect(Math.abs(message - label), `message at ${message}, label at ${label}`).toBeLessThanOrEqual(1);
  // The box itself on the form's left axis, under the heading.
  const heading = await rect(ui.heading(ui.welcomeT('title')));
  expect(Math.abs((await rect(terms)).x - heading.x)).toBeLessThanOrEqual(1);
});

test.describe('single sign-on primary at 360', () => {
  const domain = `ssowrap-${randomBytes(3).toString('hex')}.test`;
  let idp: TestSamlIdp;
  test.beforeAll(async () => {
    idp = await startSamlIdp(async () => (await fetch(`${BASE_URL}/api/sso/saml/metadata`)).text());
    const file = join(WORK_DIR, `idp-${domain}.xml`);
    writeFileSync(file, idp.metadata);
    admin('sso', 'set', domain, '--saml', '--metadata', file);
    admin('domain', 'set', domain, '--sso-only');
  });
  test.afterAll(async () => {
    await idp?.stop();
  });

  for (const lang of ['en', 'pt'] as const) {
    test.describe(lang, () => {
      test.use({ locale: BROWSER_LOCALE[lang], viewport: { width: 360, height: 740 } });
      test(`${lang}: one line, in the middle of its pill, in words of the language`, async ({ page }) => {
        const ui = new AccountScreens(page, lang);
        await page.goto('/user/login');
        await ui.field(ui.loginT('email')).fill(`kim@${domain}`);
        const label = texts(lang, 'sso')('continue');
        const primary = page.getByRole('link', { name: label, exact: true });
        await expect(primary).toBeVisible();
        await expect(primary).toHaveClass(/btn--primary/);
        expect(label).not.toMatch(/\(sso\)/i);
        // One line: the pill's own height (48 px), not two lines of text.
        expect((await rect(primary)).height).toBeLessThanOrEqual(50);
        expect(await primary.evaluate((el) => getComputedStyle(el).textAlign)).toBe('center');
      });

      test(`${lang}: sign-up and recovery on the domain promise no code, in the lead or the panel, and say it once`, async ({
        page,
      }) => {
        const ui = new AccountScreens(page, lang);
        const common = texts(lang, 'common');
        const panel = page.locator('.user-layout__say').filter({ visible: true });
        for (const [path, step, t, lead] of [
          ['/user/signup', 'signup', ui.signupT, 'signup-lead'],
          ['/user/recovery-password', 'recovery-password', ui.recoveryT, 'recovery-lead'],
        ] as const) {
          await page.goto(path);
          await expect(panel).toHaveText(common(`userLayout.step.${step}`));
          await ui.field(t('email')).fill(`kim@${domain}`);
          await expect(page.getByRole('link', { name: texts(lang, 'sso')('continue'), exact: true })).toBeVisible();
          await expect(page.getByTestId(lead)).toHaveText(t('leadSso', { domain }));
          await expect(panel).toHaveText(common(`userLayout.sso.${step}`));
          // The lead says it: no box under the field repeating it.
          await expect(page.locator('form .alert')).toHaveCount(0);
        }
      });
    });
  }
});
