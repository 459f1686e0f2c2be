import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, createAccount, signInWithStorage } from '../fixtures/test';
import { adminWith } from '../fixtures/admin';
import { startCluster, type BrowserCluster } from '../fixtures/cluster';
import { AccountScreens } from '../pages/account';
import { SecurityScreens, VirtualAuthenticator, appCode } from '../pages/security';
import { CLUSTER_BASE_URL, CLUSTER_DIR } from '../env';
import { ssoSetOidc, startOidcProvider, type TestOidcProvider } from '../../apps/server/test/idp/oidc';
import { startSamlIdp, type TestSamlIdp } from '../../apps/server/test/idp/saml';

/**
 * Sign-ins whose steps land on different instances, in Chromium, on the two-instance
 * set-up (PostgreSQL, Redis, nginx): what one instance keeps between two steps (an SSO request's state,
 * PKCE verifier and nonce, a SAML request ID, a WebAuthn challenge, a pending second step) must be
 * there for the other. Each step is sent to its instance (fixtures/cluster.ts) and the instance that
 * answered is read from nginx's X-Suite-Instance.
 */
test.describe.configure({ mode: 'serial' });
// The OpenID provider's page is HTTPS under the test CA (the server trusts it; the browser need not).
test.use({ ignoreHTTPSErrors: true });

const run = randomBytes(3).toString('hex');
const OIDC_DOMAIN = `oidc-${run}.test`;
const SAML_DOMAIN = `saml-${run}.test`;
let cluster: BrowserCluster;
let op: TestOidcProvider;
let idp: TestSamlIdp;

test.beforeAll(async () => {
  // PostgreSQL's start, two servers' and the providers' on a busy machine.
  test.setTimeout(180_000);
  cluster = await startCluster();
  const redirectUris: string[] = [];
  op = await startOidcProvider(redirectUris);
  idp = await startSamlIdp(async () => (await fetch(`http://${cluster.address(0)}/api/sso/saml/metadata`)).text());
  const admin = (...args: string[]) => adminWith(cluster.env, ...args);
  const own = /redirect URI to register at the provider: (\S+)/.exec(admin(...ssoSetOidc(OIDC_DOMAIN, op)))![1]!;
  expect(own.startsWith(`${CLUSTER_BASE_URL}/api/sso/oidc/callback/`)).toBe(true);
  redirectUris.push(own);
  const metadata = join(CLUSTER_DIR, `idp-${run}.xml`);
  writeFileSync(metadata, idp.metadata);
  admin('sso', 'set', SAML_DOMAIN, '--saml', '--metadata', metadata);
});
test.afterAll(async () => {
  await op?.stop();
  await idp?.stop();
  await cluster?.stop();
});

/** Which instance answered each API path (the last answer of each), as nginx named it. */
function answers(page: Page): Map<string, string | undefined> {
  const seen = new Map<string, string | undefined>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/')) seen.set(url.pathname, response.headers()['x-suite-instance']);
  });
  return seen;
}

test('OpenID Connect: started on one instance, the provider returns to the other, in the app', async ({ page }) => {
  const ui = new AccountScreens(page);
  const seen = answers(page);
  const email = `ada.${run}@${OIDC_DOMAIN}`;
  await cluster.pin(page.context(), 0);
  await page.goto('/user/login');
  await ui.field(ui.loginT('email')).fill(email);
  await page.getByRole('link', { name: ui.ssoT('continue') }).click();
  await expect(page).toHaveURL(new RegExp(`^${op.issuer}/interaction/`));
  await cluster.pin(page.context(), 1);
  await ui.signInAtOidcProvider();
  await expect(page).toHaveURL(/\/user\/welcome\?sso=1$/);
  expect(seen.get('/api/sso/start')).toBe(cluster.address(0));
  const callback = [...seen.keys()].find((path) => path.startsWith('/api/sso/oidc/callback/'));
  expect(callback && seen.get(callback)).toBe(cluster.address(1));
  await cluster.pin(page.context(), 0);
  await ui.acceptSsoTerms();
  await page.goto('/app');
  await expect(page.getByRole('heading', { name: ui.homeT('greeting', { name: 'Ada Lovelace' }) })).toBeVisible();
});

test('SAML: requested on one instance, asserted to the other, in the app', async ({ page }) => {
  const ui = new AccountScreens(page);
  const seen = answers(page);
  const email = `grace.${run}@${SAML_DOMAIN}`;
  await cluster.pin(page.context(), 1);
  await page.goto('/user/login');
  await ui.field(ui.loginT('email')).fill(email);
  await page.getByRole('link', { name: ui.ssoT('continue') }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp.url}/sso`));
  // The IdP posts the assertion cross-site: no SameSite=Lax cookie goes with it.
  await cluster.pinNext(page, '/api/sso/saml/acs', 0);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/user\/welcome\?sso=1$/);
  expect(seen.get('/api/sso/start')).toBe(cluster.address(1));
  expect(seen.get('/api/sso/saml/acs')).toBe(cluster.address(0));
  await ui.acceptSsoTerms();
});

test('a passkey: its challenges made on one instance and answered on the other, added and signed in with', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  const authenticator = await VirtualAuthenticator.attach(page);
  const ui = new SecurityScreens(page);
  const seen = answers(page);
  await signInWithStorage(page, account, '/app/security');
  await cluster.pin(page.context(), 0);
  await cluster.pinNext(page, '/api/v2/user/passkeys', 1);
  await ui.addPasskey();
  expect(seen.get('/api/v2/user/passkeys/options')).toBe(cluster.address(0));
  expect(seen.get('/api/v2/user/passkeys')).toBe(cluster.address(1));
  expect(await authenticator.credentials()).toHaveLength(1);

  // Signed out, the login screen's autofill asks instance 1 for a challenge; instance 0 checks the answer.
  await page.unrouteAll();
  await cluster.pin(page.context(), 1);
  await cluster.pinNext(page, '/api/auth/passkey', 0);
  await ui.signOut({ passkeyAutofill: true });
  await ui.expectHome(account.email);
  expect(seen.get('/api/auth/passkey/options')).toBe(cluster.address(1));
  expect(seen.get('/api/auth/passkey')).toBe(cluster.address(0));
});

test('two-step verification: turned on across the instances, its code step answered on the other one', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  const ui = new SecurityScreens(page);
  const seen = answers(page);
  await signInWithStorage(page, account, '/app/security');
  await cluster.pin(page.context(), 0);
  await cluster.pinNext(page, '/api/v2/user/totp/enable', 1);
  const { secret } = await ui.turnOnTwoStep();
  expect(seen.get('/api/v2/user/totp/setup')).toBe(cluster.address(0));
  expect(seen.get('/api/v2/user/totp/enable')).toBe(cluster.address(1));
  await ui.button(ui.secT('codes.done')).click();

  await page.unrouteAll();
  await cluster.pin(page.context(), 1);
  await cluster.pinNext(page, '/api/auth/login/second-step', 0);
  await ui.signOut();
  await ui.logIn(account.email, account.password);
  await ui.expectCodeStep(account.email);
  await ui.answerWithApp(appCode(secret, 1));
  await ui.expectHome(account.email);
  expect(seen.get('/api/auth/login')).toBe(cluster.address(1));
  expect(seen.get('/api/auth/login/second-step')).toBe(cluster.address(0));
});
