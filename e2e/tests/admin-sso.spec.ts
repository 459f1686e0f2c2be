import type { Page } from '@playwright/test';
import {
  test,
  expect,
  uniqueEmail,
  createAccount,
  signInWithStorage,
  expectAccessible,
  screenshots,
} from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { dnsZone } from '../fixtures/dns';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';
import { ssoSetOidc, startOidcProvider, type TestOidcProvider } from '../../apps/server/test/idp/oidc';

/**
 * The console's single-sign-on page in Chromium: an administrator of a domain proven by its DNS record
 * connects it to a real OpenID provider (panva's oidc-provider over HTTPS, trusted through the test CA),
 * runs the Test sign-in in a popup, reads the verdicts, and sees a refused sign-in among the failures.
 */
const t = texts('en', 'admin');
const s = texts('en', 'adminSso');
const ssoErrorT = texts('en', 'ssoError');
const domainOf = (email: string) => email.split('@')[1]!;

let op: TestOidcProvider;
/** The provider reads it at each request: a connection's redirect URI is known once it is saved. */
const redirectUris: string[] = [];

test.describe.configure({ mode: 'serial' });
// The provider's page is HTTPS under the test CA; what is under test is the server's trust of it.
test.use({ ignoreHTTPSErrors: true });

test.beforeAll(async () => {
  op = await startOidcProvider(redirectUris);
});
test.afterAll(async () => {
  await op?.stop();
});

/** The connection's redirect URI as the page shows it under "Our addresses", registered at the provider. */
async function registerRedirect(page: Page): Promise<void> {
  const shown = page.locator('.sso__address code').filter({ hasText: /\/api\/sso\/oidc\/callback\/[\w-]+$/ });
  const uri = (await shown.textContent())!;
  redirectUris.push(uri);
}

/** Test sign-in: the provider's page opens in a popup; `login` signs in there; the popup closes itself. */
async function testSignIn(page: Page, login: string): Promise<void> {
  // No provider session left from an earlier sign-in: its own page is shown each time.
  await page.context().clearCookies({ name: /^_session|^_interaction/ });
  const opened = page.waitForEvent('popup');
  await page.getByRole('button', { name: s('test.button') }).click();
  const popup = await opened;
  await expect(popup).toHaveURL(new RegExp(`^${op.issuer}/interaction/`), { timeout: 20_000 });
  await expect(page.getByRole('status').filter({ hasText: s('test.waiting') })).toBeVisible();
  await popup.locator('input[name="login"]').fill(login);
  await popup.locator('input[name="password"]').fill('anything');
  // Listened for before the click: the popup may close itself before the click's own wait returns.
  const closed = popup.isClosed() ? Promise.resolve() : popup.waitForEvent('close', { timeout: 30_000 });
  await popup
    .getByRole('button', { name: 'Sign-in' })
    .click({ noWaitAfter: true })
    // A popup that closed itself as the click landed has done what the click was for.
    .catch((error: unknown) => {
      if (!popup.isClosed()) throw error;
    });
  await closed;
}

test('set up from the console for a DNS-proven domain, tested in a popup, then on; a refused sign-in is listed', async ({
  page,
  browser,
  request,
}) => {
  const person = await createAccount(request, uniqueEmail('it'));
  const domain = domainOf(person.email);
  await signInWithStorage(page, person, '/app');
  // The domain is proven by its TXT record (the claim flow's cases are admin-console.spec.ts's).
  await page
    .getByRole('navigation', { name: texts('en', 'home')('nav.label') })
    .getByRole('link', { name: texts('en', 'home')('nav.admin'), exact: true })
    .click();
  const name = `_suite-challenge.${domain}`;
  const value = (await page
    .locator('code')
    .filter({ hasText: /^suite-verify=/ })
    .textContent())!;
  dnsZone.txt(name, value);
  await page.getByRole('button', { name: t('claim.check') }).click();
  await expect(page.getByText(t('claim.proven', { domain }))).toBeVisible();
  await page.getByRole('link', { name: t('open') }).click();
  await page.getByRole('link', { name: t('nav.sso') }).click();
  await expect(page).toHaveURL(/\/app\/admin\/single-sign-on$/);
  await expect(page.getByRole('heading', { level: 2, name: s('title'), exact: true })).toBeVisible();

  // No connection yet: it says so, offers the set-up, and the redirect URI comes once it exists.
  await expect(page.getByTestId('sso-none')).toHaveText(s('noneSetUp'));
  await expect(page.getByRole('heading', { name: s('setup.title') })).toBeVisible();
  await expect(page.getByText(s('ours.redirectLater'))).toBeVisible();
  await expect(page.getByRole('button', { name: s('test.button') })).toHaveCount(0);
  await expectAccessible(page, 'sso none');
  await screenshots(page, 'admin-sso-none-en');

  await page.getByRole('radio', { name: 'OpenID Connect' }).check();
  await page.getByLabel(s('fact.issuer')).fill(op.issuer);
  await page.getByLabel(s('fact.clientId')).fill(op.clientId);
  await page.getByLabel(s('setup.secret')).fill(op.clientSecret);
  await page.getByRole('button', { name: s('setup.save') }).click();
  await expect(page.getByText(s('awaitingTest'))).toBeVisible();
  await expect(page.getByText(s('passwordsToo'))).toBeVisible();
  const facts = page.locator('.sso__facts').first();
  await expect(facts.getByText(op.issuer, { exact: true })).toBeVisible();
  await expect(facts.getByText(op.clientId, { exact: true })).toBeVisible();
  // The secret is never shown back.
  await expect(page.getByText(op.clientSecret)).toHaveCount(0);
  await expect(page.getByText(s('ours.redirectLater'))).toHaveCount(0);
  await registerRedirect(page);
  await expectAccessible(page, 'sso awaiting test');
  await screenshots(page, 'admin-sso-awaiting-en');

  // Off until tested: the login screen offers no single sign-on for the domain yet.
  const offered = await request.get(`/api/sso/start?email=${encodeURIComponent(`x@${domain}`)}`, { maxRedirects: 0 });
  expect(offered.headers()['location'] ?? '').not.toContain(op.issuer);

  // A failed test: the provider answers an address of another domain. The failing check says why.
  const stranger = `eve-${Date.now().toString(36)}@elsewhere.test`;
  await testSignIn(page, stranger);
  const result = page.getByTestId('sso-test-result');
  await expect(result.getByText(s('test.failed'))).toBeVisible();
  await expect(result.locator('.sso__check--bad')).toHaveCount(1);
  await expect(result.locator('.sso__check--bad')).toContainText(s('test.check.address'));
  await expect(result.getByRole('definition').filter({ hasText: stranger })).toBeVisible();
  await expect(page.getByText(s('awaitingTest'))).toBeVisible();
  await expectAccessible(page, 'sso test failed');
  await screenshots(page, 'admin-sso-test-failed-en');

  // A passed test: the claims received and every check's verdict; the connection is then on.
  const tester = `tester-${Date.now().toString(36)}@${domain}`;
  await testSignIn(page, tester);
  await expect(result.getByText(s('test.passed'))).toBeVisible();
  await expect(result.locator('.sso__check--bad')).toHaveCount(0);
  for (const check of ['answer', 'address', 'domain_active', 'account'])
    await expect(result.getByText(s(`test.check.${check}`))).toBeVisible();
  await expect(result.getByText(s('test.account.new'))).toBeVisible();
  await expect(result.getByRole('definition').filter({ hasText: tester })).toBeVisible();
  await expect(result.locator('.sso__value')).toContainText('email');
  await expect(result.locator('.sso__value')).toContainText('given_name');
  await expect(page.getByText(s('on'), { exact: true })).toBeVisible();
  await expect(page.getByText(s('awaitingTest'))).toHaveCount(0);
  await expectAccessible(page, 'sso test passed');
  await screenshots(page, 'admin-sso-test-passed-en');

  // Nobody was signed in and no account was made for the tested person.
  await page.getByRole('link', { name: t('nav.people') }).click();
  await page.getByLabel(t('people.search')).fill(tester);
  await page.getByRole('button', { name: t('people.searchButton') }).click();
  await expect(page.getByText(t('people.noMatch', { query: tester }))).toBeVisible();

  // Someone of the domain signs in through it, but the provider answers another domain's address.
  const theirs = await browser.newContext({ ignoreHTTPSErrors: true });
  const theirPage = await theirs.newPage();
  await theirPage.goto(`/api/sso/start?email=${encodeURIComponent(`mallory@${domain}`)}`);
  await expect(theirPage).toHaveURL(new RegExp(`^${op.issuer}/interaction/`));
  const mallory = `mallory-${Date.now().toString(36)}@elsewhere.test`;
  await theirPage.locator('input[name="login"]').fill(mallory);
  await theirPage.locator('input[name="password"]').fill('anything');
  await theirPage.getByRole('button', { name: 'Sign-in' }).click();
  await expect(theirPage).toHaveURL(/\/login-error-sso\?reason=foreign$/);
  await theirs.close();

  await page.getByRole('link', { name: t('nav.sso') }).click();
  const failures = page.getByTestId('sso-failures');
  const refused = failures.getByRole('listitem').filter({ hasText: mallory });
  await expect(refused).toHaveCount(1);
  await expect(refused.getByText(ssoErrorT('reasons.foreign.title'))).toBeVisible();
  await expectAccessible(page, 'sso failures');
  await screenshots(page, 'admin-sso-failures-en');

  // The operator makes the domain SSO-only: setting the connection up again would switch it off until
  // tested and lock everyone out, so the page refuses it and the connection keeps serving.
  admin('domain', 'set', domain, '--sso-only');
  await page.reload();
  await expect(page.getByText(s('ssoOnly'))).toBeVisible();
  await page.getByRole('radio', { name: 'OpenID Connect' }).check();
  await page.getByLabel(s('fact.issuer')).fill(op.issuer);
  await page.getByLabel(s('fact.clientId')).fill(op.clientId);
  await page.getByLabel(s('setup.secret')).fill(op.clientSecret);
  await page.getByRole('button', { name: s('setup.save') }).click();
  await expect(page.getByText(texts('en', 'errors')('ERR_SSO_SETUP_SSO_ONLY'))).toBeVisible();
  await expect(page.getByText(s('on'), { exact: true })).toBeVisible();
  await expectAccessible(page, 'sso set-up refused on an SSO-only domain');
  await page.reload();
  await expect(page.getByText(s('on'), { exact: true })).toBeVisible();
  await expect(page.getByText(s('awaitingTest'))).toHaveCount(0);
  dnsZone.remove(name);
});

test.describe('the single-sign-on page in the other languages', () => {
  for (const lang of ['pt', 'es', 'hi', 'it'] as Lang[]) {
    test(`${lang}: the connection, the set-up and our addresses in its texts, accessible`, async ({
      browser,
      request,
    }) => {
      const boss = await createAccount(request, uniqueEmail('admin'));
      const domain = domainOf(boss.email);
      admin('domain', 'admin', 'add', domain, boss.email);
      admin(...ssoSetOidc(domain, op));
      const context = await browser.newContext({ locale: BROWSER_LOCALE[lang] });
      const page = await context.newPage();
      const tl = texts(lang, 'admin');
      const sl = texts(lang, 'adminSso');
      await signInWithStorage(page, boss, '/app');
      await page.getByRole('link', { name: texts(lang, 'home')('nav.admin'), exact: true }).click();
      await page.getByRole('link', { name: tl('nav.sso') }).click();
      await expect(page.getByRole('heading', { level: 2, name: sl('title'), exact: true })).toBeVisible();
      await expect(page.getByText(sl('connection'), { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: sl('test.button') })).toBeVisible();
      // Granted by the operator, not proven by DNS: the set-up is not offered, and says why.
      await expect(page.getByText(sl('setup.proveFirst'))).toBeVisible();
      await expect(page.getByRole('heading', { name: sl('failures.title') })).toBeVisible();
      await expect(page.getByText(sl('failures.none'))).toBeVisible();
      await expect(page.getByRole('heading', { name: sl('ours.title') })).toBeVisible();
      await expectAccessible(page, `${lang} sso`);
      if (lang === 'hi') await screenshots(page, 'admin-sso-hi');
      await context.close();
    });
  }
});
