import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, screenshots } from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { accessible } from '../pages/a11y';
import { AccountScreens } from '../pages/account';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';
import { APP_PORT, BASE_URL, WORK_DIR } from '../env';
import { simpleSamlPhpMissing, startSimpleSamlPhp, type SimpleSamlPhp } from '../../apps/server/test/idp/simplesamlphp';

/**
 * Company sign-in in Chromium against Debian's SimpleSAMLphp (a SAML provider nobody here wrote): the
 * provider's app tile (IdP-initiated) refused with the way in, then allowed after "Continue as …?", and
 * "Sign out" ending the provider's session too (single logout).
 */
const run = randomBytes(3).toString('hex');
const DOMAIN = `ssp-${run}.test`;
const SP_ENTITY = `${BASE_URL}/api/sso/saml/metadata`;
const missing = simpleSamlPhpMissing();
let ssp: SimpleSamlPhp;

test.describe.configure({ mode: 'serial' });
test.skip(missing !== null, `SimpleSAMLphp is not installed: ${missing}`);

const users = ['en', 'hi'].map((lang) => ({
  username: `tile-${lang}-${run}`,
  attributes: {
    uid: [`tile-${lang}-${run}`],
    email: [`tile.${lang}@${DOMAIN}`],
    givenName: ['Tilda'],
    sn: ['Swinton'],
  },
}));

test.beforeAll(async () => {
  ssp = await startSimpleSamlPhp({ port: APP_PORT + 9, users, returnHosts: [new URL(BASE_URL).host] });
  ssp.trustSp(await (await fetch(SP_ENTITY)).text());
  const file = join(WORK_DIR, `ssp-${run}.xml`);
  writeFileSync(file, await ssp.metadata());
  admin('sso', 'set', DOMAIN, '--saml', '--metadata', file);
});
test.afterAll(async () => {
  await ssp?.stop();
});

/** The person at SimpleSAMLphp's own sign-in page (its user name is its password). */
async function signInAtSimpleSamlPhp(page: Page, username: string): Promise<void> {
  await expect(page.locator('#username')).toBeVisible();
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(username);
  await page.locator('#password').press('Enter');
}

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`SimpleSAMLphp (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const user = users.find((u) => u.username.startsWith(`tile-${lang}`))!;
    const email = user.attributes.email[0]!;

    test('the app tile: refused with the way in, then "Continue as …?"; sign out ends the provider session', async ({
      page,
    }) => {
      const ui = new AccountScreens(page, lang);
      const pagesT = texts(lang, 'pages');
      const ssoErrorT = texts(lang, 'ssoError');
      // Off by default: the page says to start from our sign-in page and offers the button.
      admin('sso', 'set', DOMAIN, '--saml', '--metadata', join(WORK_DIR, `ssp-${run}.xml`));
      await page.goto(ssp.tileUrl(SP_ENTITY));
      await signInAtSimpleSamlPhp(page, user.username);
      await expect(page).toHaveURL(/\/login-error-sso\?reason=idp-initiated$/);
      await expect(page.getByRole('heading', { name: ssoErrorT('reasons.idp-initiated.title') })).toBeVisible();
      await expect(page.getByText(ssoErrorT('reasons.idp-initiated.text'))).toBeVisible();
      await accessible(page, 'sso error, idp-initiated');
      await screenshots(page, `sso-idp-initiated-refused-${lang}`);
      await page.getByRole('link', { name: ssoErrorT('startHere') }).click();
      await expect(page).toHaveURL(/\/user\/login$/);

      // Allowed: nothing binds the answer to this browser, so the person is asked first.
      admin('sso', 'set', DOMAIN, '--saml', '--metadata', join(WORK_DIR, `ssp-${run}.xml`), '--allow-idp-initiated');
      await page.goto(ssp.tileUrl(SP_ENTITY));
      await expect(page.getByRole('heading', { name: pagesT('auth.confirmTitle', { email }) })).toBeVisible();
      await accessible(page, 'continue as, idp-initiated');
      await screenshots(page, `sso-idp-initiated-confirm-${lang}`);
      await page.getByRole('button', { name: pagesT('auth.confirmContinue', { email }) }).click();
      await ui.acceptSsoTerms();
      await page.goto('/app');
      await expect(page.getByText(ui.homeT('signedInAs', { email }))).toBeVisible();

      // Sign out: our session and the provider's end; the browser comes back to our sign-in page.
      await ui.signOutFromMenu();
      await expect(page).toHaveURL(/\/user\/login\?signed-out=1$/);
      // The provider asks for the password again: its session is over.
      await page.goto(ssp.tileUrl(SP_ENTITY));
      await expect(page.locator('#username')).toBeVisible();
    });
  });
}

test('"Sign out of all devices" of a single sign-on session ends this browser\'s provider session too', async ({
  page,
  browser,
}) => {
  const user = users[0]!;
  const email = user.attributes.email[0]!;
  const ui = new AccountScreens(page, 'en');
  // The person signed in on two browsers through the provider's tile start URL (finished its welcome above).
  const other = await browser.newPage();
  for (const p of [other, page]) {
    await p.goto(`/api/sso/start?domain=${DOMAIN}`);
    await signInAtSimpleSamlPhp(p, user.username);
    await p.waitForURL(/\/app/);
  }
  await expect(page.getByText(ui.homeT('signedInAs', { email }))).toBeVisible();
  // The action is in the account menu, and asks for confirmation first.
  await page.getByRole('banner').getByRole('button').click();
  await page.getByRole('menuitem', { name: ui.homeT('menu.signOutAll'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: ui.homeT('menu.allTitle') });
  await expect(dialog).toContainText(ui.homeT('menu.allText'));
  await dialog.getByRole('button', { name: ui.homeT('menu.allConfirm') }).click();
  // Through the provider's single logout, back to our sign-in page.
  await expect(page).toHaveURL(/\/user\/login\?signed-out=1$/);
  await page.goto(ssp.tileUrl(SP_ENTITY));
  await expect(page.locator('#username')).toBeVisible();
  // The other browser's session here is over too.
  await other.reload();
  await expect(other).toHaveURL(/\/user\/login/);
  await other.close();
});
