import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, screenshots, createAccount } from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { accessible } from '../pages/a11y';
import { AccountScreens } from '../pages/account';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';
import { BASE_URL, WORK_DIR } from '../env';
import { ssoSetOidc, startOidcProvider, type TestOidcProvider } from '../../apps/server/test/idp/oidc';
import { startSamlIdp, type TestSamlIdp } from '../../apps/server/test/idp/saml';

/**
 * Company sign-in in Chromium against real identity providers started here: panva's
 * oidc-provider over HTTPS (the server trusts its throwaway CA, playwright.config.ts) and a samlify IdP
 * signing real assertions. The address typed on the login screen leads to the provider's page and back
 * into the app with a session.
 */
const run = randomBytes(3).toString('hex');
const OIDC_DOMAIN = `oidc-${run}.test`;
const SAML_DOMAIN = `saml-${run}.test`;
/** A SAML connection whose IdP releases no address (the most common SAML misconfiguration). */
const NOMAIL_DOMAIN = `nomail-${run}.test`;
/** An OIDC connection set with a wrong client secret. */
const BADSECRET_DOMAIN = `badsecret-${run}.test`;
let nomailIdp: TestSamlIdp;
let op: TestOidcProvider;
let idp: TestSamlIdp;

test.describe.configure({ mode: 'serial' });
// The browser visits the provider's HTTPS page under the test CA; what is under test is the server's
// trust of it (NODE_EXTRA_CA_CERTS), not the browser's certificate store.
test.use({ ignoreHTTPSErrors: true });

test.beforeAll(async () => {
  const redirectUris: string[] = [];
  op = await startOidcProvider(redirectUris);
  idp = await startSamlIdp(async () => (await fetch(`${BASE_URL}/api/sso/saml/metadata`)).text());
  // The connection's own redirect URI, as `sso set` prints it, is what the operator registers.
  redirectUris.push(/redirect URI to register at the provider: (\S+)/.exec(admin(...ssoSetOidc(OIDC_DOMAIN, op)))![1]!);
  const file = join(WORK_DIR, `idp-${run}.xml`);
  writeFileSync(file, idp.metadata);
  admin('sso', 'set', SAML_DOMAIN, '--saml', '--metadata', file);
  admin('domain', 'set', SAML_DOMAIN, '--sso-only');
  redirectUris.push(
    /redirect URI to register at the provider: (\S+)/.exec(
      admin(...ssoSetOidc(BADSECRET_DOMAIN, { ...op, clientSecret: 'not-the-secret-0123456789abcdef' })),
    )![1]!,
  );
  nomailIdp = await startSamlIdp(async () => (await fetch(`${BASE_URL}/api/sso/saml/metadata`)).text());
  Object.assign(nomailIdp.browserAnswer, {
    nameId: `opaque-${run}`,
    nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    attributes: [['uid', `uid-${run}`]],
  });
  const nomailFile = join(WORK_DIR, `idp-nomail-${run}.xml`);
  writeFileSync(nomailFile, nomailIdp.metadata);
  admin('sso', 'set', NOMAIL_DOMAIN, '--saml', '--metadata', nomailFile);
});
test.afterAll(async () => {
  await op?.stop();
  await idp?.stop();
  await nomailIdp?.stop();
});

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`single sign-on (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('OpenID Connect: address → provider → terms → in the app, greeted by name', async ({ page }) => {
      const ui = new AccountScreens(page, lang);
      const email = `ada.${lang}.${run}@${OIDC_DOMAIN}`;
      await page.goto('/user/login');
      await ui.field(ui.loginT('email')).fill(email);
      const sso = page.getByRole('link', { name: ui.ssoT('continue') });
      await expect(sso).toBeVisible();
      // Identifier-first: the domain's single sign-on is the one primary action, the lead names it, and
      // the password (still allowed on a domain that is not SSO-only) is one quiet link away.
      await expect(sso).toHaveClass(/btn--primary/);
      await expect(page.getByText(ui.loginT('ssoLead', { domain: OIDC_DOMAIN }))).toBeVisible();
      await expect(ui.field(ui.loginT('password'))).toHaveCount(0);
      await accessible(page, 'login with single sign-on offered');
      await screenshots(page, `sso-login-available-${lang}`);
      await page.getByRole('button', { name: ui.loginT('usePassword') }).click();
      await expect(ui.field(ui.loginT('password'))).toBeVisible();
      await expect(page.getByRole('button', { name: ui.loginT('submit'), exact: true })).toHaveClass(/btn--primary/);
      await page.getByRole('link', { name: ui.loginT('useSso') }).click();
      // The provider's own sign-in page (login_hint filled in).
      await expect(page).toHaveURL(new RegExp(`^${op.issuer}/interaction/`));
      await expect(page.locator('input[name="login"]')).toHaveValue(email);
      await ui.signInAtOidcProvider();
      // First sign-in: the terms alone, then the teammates step of a professional account.
      await expect(page).toHaveURL(/\/user\/welcome\?sso=1$/);
      await expect(page.getByText(ui.welcomeT('ssoLead'))).toBeVisible();
      await expect(page.getByLabel(ui.welcomeT('password'))).toHaveCount(0);
      await accessible(page, 'welcome, single sign-on');
      await screenshots(page, `sso-welcome-${lang}`);
      await ui.acceptSsoTerms();
      await page.goto('/app');
      await expect(page.getByRole('heading', { name: ui.homeT('greeting', { name: 'Ada Lovelace' }) })).toBeVisible();
      // The session is listed as a single-sign-on one; its token never passed through the address bar.
      await ui.openSection('sessions');
      await expect(page.getByText(texts(lang, 'sessions')('methodSso'))).toBeVisible();
      const history = await page.evaluate(() => window.location.href);
      expect(history).not.toContain('handoff');
      // A second sign-in goes straight in.
      await page.evaluate(() => window.localStorage.clear());
      await page.goto(`/api/sso/start?email=${encodeURIComponent(email)}`);
      await expect(page).toHaveURL(/\/app$/);
    });

    test('SAML on an SSO-only domain: only single sign-on is offered; a cancel ends on a clear error page; a fresh proof returns', async ({
      page,
    }) => {
      const ui = new AccountScreens(page, lang);
      const ssoErrorT = texts(lang, 'ssoError');
      const email = `grace.${lang}.${run}@${SAML_DOMAIN}`;
      await page.goto('/user/login');
      await ui.field(ui.loginT('email')).fill(email);
      await expect(page.getByText(ui.loginT('ssoLead', { domain: SAML_DOMAIN }))).toBeVisible();
      await expect(ui.field(ui.loginT('password'))).toHaveCount(0);
      await screenshots(page, `sso-login-required-${lang}`);
      await page.getByRole('link', { name: ui.ssoT('continue') }).click();
      await expect(page).toHaveURL(new RegExp(`^${idp.url}/sso`));
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page).toHaveURL(/\/login-error-sso\?reason=cancelled$/);
      await expect(page.getByRole('heading', { name: ssoErrorT('reasons.cancelled.title') })).toBeVisible();
      await accessible(page, 'single-sign-on error');
      await screenshots(page, `sso-error-${lang}`);
      await page.getByRole('link', { name: ssoErrorT('retry') }).click();
      await expect(page).toHaveURL(/\/user\/login$/);
      await ui.field(ui.loginT('email')).fill(email);
      await page.getByRole('link', { name: ui.ssoT('continue') }).click();
      await page.getByLabel('E-mail').fill(email);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/user\/welcome\?sso=1$/);
      await ui.acceptSsoTerms();
      await page.goto('/app');
      const greeting = page.getByRole('heading', { name: ui.homeT('greeting', { name: 'Grace Hopper' }) });
      await expect(greeting).toBeVisible();
      // A fresh proof at the IdP: its cross-site POST brings no cookie, so it comes back through /auth,
      // whose same-origin exchange (this browser's binding cookie) marks the session proved and returns.
      const token = await page.evaluate(() => window.localStorage.getItem('authorization'));
      const asked = await page.request.post('/api/sso/reauth', { headers: { authorization: `Bearer ${token}` } });
      expect(asked.status()).toBe(200);
      await page.goto(((await asked.json()) as { url: string }).url);
      await page.getByLabel('E-mail').fill(email);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/app$/);
      await expect(greeting).toBeVisible();
      expect(await page.evaluate(() => window.localStorage.getItem('authorization'))).toBe(token);
    });
  });
}

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`single sign-on failures that name their cause (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('an IdP that sends no address: the page says so and what to tell IT, from the start link of the domain', async ({
      page,
    }) => {
      const ssoErrorT = texts(lang, 'ssoError');
      // The start link an IT team puts on its portal: the domain alone.
      await page.goto(`/api/sso/start?domain=${NOMAIL_DOMAIN}`);
      await expect(page).toHaveURL(new RegExp(`^${nomailIdp.url}/sso`));
      await page.getByLabel('E-mail').fill(`someone.${lang}@${NOMAIL_DOMAIN}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/login-error-sso\?reason=no-email$/);
      await expect(page.getByRole('heading', { name: ssoErrorT('reasons.no-email.title') })).toBeVisible();
      await expect(page.getByText(ssoErrorT('reasons.no-email.text'))).toBeVisible();
      await accessible(page, 'single-sign-on error, no address');
      await screenshots(page, `sso-error-no-email-${lang}`);
      await page.getByRole('link', { name: ssoErrorT('toLogin') }).click();
      await expect(page).toHaveURL(/\/user\/login$/);
      expect(await page.evaluate(() => localStorage.getItem('authorization'))).toBeNull();
    });

    test('a connection with a wrong client secret: "not set up correctly", not an outage', async ({ page }) => {
      const ssoErrorT = texts(lang, 'ssoError');
      await page.goto(`/api/sso/start?domain=${BADSECRET_DOMAIN}`);
      await expect(page).toHaveURL(new RegExp(`^${op.issuer}/interaction/`));
      await page.locator('input[name="login"]').fill(`someone.${lang}@${BADSECRET_DOMAIN}`);
      await new AccountScreens(page, lang).signInAtOidcProvider();
      await expect(page).toHaveURL(/\/login-error-sso\?reason=misconfigured$/);
      await expect(page.getByRole('heading', { name: ssoErrorT('reasons.misconfigured.title') })).toBeVisible();
      await expect(page.getByText(ssoErrorT('reasons.misconfigured.text'))).toBeVisible();
      await accessible(page, 'single-sign-on error, misconfigured');
      await screenshots(page, `sso-error-misconfigured-${lang}`);
    });
  });
}

test('/auth never switches a signed-in person into another account without asking', async ({ page, request }) => {
  const pagesT = texts('en', 'pages');
  const alice = await createAccount(request);
  const mallory = await createAccount(request);
  await page.goto('/user/login');
  const ui = new AccountScreens(page, 'en');
  await ui.logIn(alice.email, alice.password);
  await ui.expectHome(alice.email);
  await page.goto(`/auth?token=${mallory.token}`);
  await expect(page.getByRole('heading', { name: pagesT('auth.switchTitle') })).toBeVisible();
  await expect(page).not.toHaveURL(/token=/);
  await accessible(page, 'switch account question');
  await page.getByRole('button', { name: pagesT('auth.switchStay', { current: alice.email }) }).click();
  await ui.expectHome(alice.email);
});

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`login CSRF: a session nobody in this browser asked for (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test("an attacker's hand-off or token link asks “Continue as …?”, and declining stores nothing", async ({
      page,
      request,
    }) => {
      const pagesT = texts(lang, 'pages');
      // The attacker signs in at the IdP in their own client and keeps the answer's hand-off link.
      const attacker = `mallory.${lang}.${run}@${SAML_DOMAIN}`;
      const started = await fetch(`${BASE_URL}/api/sso/start?email=${encodeURIComponent(attacker)}`, {
        redirect: 'manual',
      });
      const requestId = await idp.requestIdOf(started.headers.get('location') ?? '');
      const posted = await fetch(`${BASE_URL}/api/sso/saml/acs`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ SAMLResponse: await idp.answer(requestId, { email: attacker }) }).toString(),
      });
      const link = new URL(posted.headers.get('location') ?? '');
      expect(link.pathname).toBe('/auth');
      // The victim's browser opens it (a third-party page's redirect).
      await page.goto(`${link.pathname}${link.search}`);
      await expect(page.getByRole('heading', { name: pagesT('auth.confirmTitle', { email: attacker }) })).toBeVisible();
      await expect(page).not.toHaveURL(/handoff=/);
      await accessible(page, 'continue as, hand-off');
      await screenshots(page, `auth-confirm-${lang}`);
      await page.getByRole('button', { name: pagesT('auth.confirmCancel') }).click();
      await expect(page).toHaveURL(/\/user\/login$/);
      expect(await page.evaluate(() => localStorage.getItem('authorization'))).toBeNull();

      // A bare token link: asked too, and "Continue" stores it.
      const someone = await createAccount(request);
      await page.goto(`/auth?token=${someone.token}`);
      await expect(page).not.toHaveURL(/token=/);
      await page.getByRole('button', { name: pagesT('auth.confirmContinue', { email: someone.email }) }).click();
      await expect(page).toHaveURL(/\/app$/);
      expect(await page.evaluate(() => localStorage.getItem('authorization'))).toBe(someone.token);
    });
  });
}
