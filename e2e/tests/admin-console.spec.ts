import type { Page } from '@playwright/test';
import {
  test,
  expect,
  mailbox,
  uniqueEmail,
  createAccount,
  signInWithStorage,
  expectAccessible,
  screenshots,
  type Account,
} from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { dnsZone } from '../fixtures/dns';
import { AccountScreens } from '../pages/account';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';

const t = texts('en', 'admin');
const homeT = texts('en', 'home');
const domainOf = (email: string) => email.split('@')[1]!;

/** A registered administrator of a domain of its own (granted by the operator's CLI), and the domain. */
async function anAdministrator(request: Parameters<typeof createAccount>[0]): Promise<Account & { domain: string }> {
  const account = await createAccount(request, uniqueEmail('admin'));
  const domain = domainOf(account.email);
  admin('domain', 'admin', 'add', domain, account.email);
  return { ...account, domain };
}

/** Opens the console from the home, as an administrator would. */
async function openConsole(page: Page, account: Account): Promise<void> {
  await signInWithStorage(page, account, '/app');
  await page
    .getByRole('navigation', { name: homeT('nav.label') })
    .getByRole('link', { name: homeT('nav.admin'), exact: true })
    .click();
  await expect(page).toHaveURL(/\/app\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: t('title') })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: t('people.title'), exact: true })).toBeVisible();
}

test.describe('the domain administrator’s console', () => {
  test('is not there for someone who administers nothing: no link on the home, the not-found page at its address', async ({
    page,
    request,
  }) => {
    const someone = await createAccount(request);
    await signInWithStorage(page, someone, '/app');
    // A company address nobody administers yet: the Administration entry opens the domain proof, not a console.
    await expect(page.getByRole('navigation', { name: homeT('nav.label') }).getByRole('link')).toHaveCount(5);
    await expect(page.getByRole('link', { name: homeT('nav.admin'), exact: true })).toHaveAttribute(
      'href',
      '/app/admin/prove-domain',
    );
    await page.goto('/app/admin');
    await expect(page.getByRole('heading', { name: texts('en', 'pages')('notFound.title') })).toBeVisible();
    await page.goto('/app/admin/audit');
    await expect(page.getByRole('heading', { name: texts('en', 'pages')('notFound.title') })).toBeVisible();
    await expectAccessible(page, 'admin not found');
  });

  test('finds a person and deactivates them while their browser is open: that browser is signed out', async ({
    page,
    browser,
    request,
  }) => {
    const boss = await anAdministrator(request);
    const leaver = await createAccount(request, `leaver-${Date.now().toString(36)}@${boss.domain}`);
    // The leaver's own browser, open on the home.
    const theirs = await browser.newContext();
    const theirPage = await theirs.newPage();
    await signInWithStorage(theirPage, leaver, '/app');
    await expect(theirPage.getByRole('navigation', { name: homeT('nav.label') })).toBeVisible();

    await openConsole(page, boss);
    await expectAccessible(page, 'people');
    await screenshots(page, 'admin-people-en');

    await page.getByLabel(t('people.search')).fill(leaver.email);
    await page.getByRole('button', { name: t('people.searchButton') }).click();
    const list = page.getByRole('list', { name: t('people.title'), exact: true });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    const row = list.getByRole('listitem', { name: `${leaver.firstName} ${leaver.lastName}` });
    await expect(row.getByText(leaver.email)).toBeVisible();
    await expect(row.getByText(t('people.status.active'))).toBeVisible();
    await expect(row.getByText(t('people.method.password'))).toBeVisible();

    await row.getByRole('button', { name: t('people.actions.deactivate') }).click();
    const name = `${leaver.firstName} ${leaver.lastName}`;
    const dialog = page.getByRole('dialog', { name: t('people.confirm.deactivate.title', { name }) });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'deactivate confirm');
    await dialog.getByRole('button', { name: t('people.actions.deactivate') }).click();
    await expect(row.getByText(t('people.status.deactivated'))).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: t('people.done.deactivate', { name }) })).toBeVisible();
    await expect(row.getByRole('button', { name: t('people.actions.reactivate') })).toBeVisible();
    await expectAccessible(page, 'deactivated');

    // Their next request is refused: the open home goes to the sign-in screen.
    await theirPage.reload();
    await expect(theirPage).toHaveURL(/\/user\/login/);
    const refused = await theirPage.request.get('/api/v2/user/me', {
      headers: { authorization: `Bearer ${leaver.token}` },
    });
    expect(refused.status()).toBe(401);
    await theirs.close();

    // The filter finds them among the deactivated.
    await page.getByLabel(t('people.search')).fill('');
    await page.getByRole('button', { name: t('people.searchButton') }).click();
    await page.getByRole('radio', { name: t('people.filters.deactivated') }).check();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list.getByText(leaver.email)).toBeVisible();
  });

  test('changes the sign-up rule to approval; a sign-up waits, asks, and is approved from the mail’s link', async ({
    page,
    browser,
    request,
  }) => {
    const boss = await anAdministrator(request);
    await openConsole(page, boss);
    await page.getByRole('link', { name: t('nav.signupRules') }).click();
    await expect(page).toHaveURL(/\/app\/admin\/sign-up-rules$/);
    await expect(page.getByRole('heading', { name: t('signup.title') })).toBeVisible();
    // No connection: SSO-only is shown off, with why.
    await expect(page.getByLabel(t('signup.ssoOnly'))).toBeDisabled();
    await expect(page.getByText(t('signup.ssoOnlyNoConnection'))).toBeVisible();
    await expectAccessible(page, 'sign-up rules');
    await screenshots(page, 'admin-signup-rules-en');
    await page.getByLabel(new RegExp(t('signup.modes.approval.title'))).check();
    await page.getByRole('button', { name: t('save') }).click();
    await expect(page.getByText(t('signup.saved')).first()).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(new RegExp(t('signup.modes.approval.title')))).toBeChecked();

    // Someone of the domain signs up: the answer says an administrator decides; "Ask for access" is there too.
    const newcomer = `newcomer-${Date.now().toString(36)}@${boss.domain}`;
    const theirs = await browser.newContext();
    const theirPage = await theirs.newPage();
    await theirPage.goto('/user/signup');
    await theirPage.getByLabel(texts('en', 'signup')('email')).fill(newcomer);
    await theirPage.getByRole('button', { name: texts('en', 'signup')('submit') }).click();
    await expect(theirPage.getByText(texts('en', 'errors')('ERR_SIGNUP_APPROVAL_PENDING'))).toBeVisible();
    await theirPage.getByRole('button', { name: texts('en', 'access')('ask') }).click();
    await expect(theirPage.getByText(texts('en', 'access')('sent'))).toBeVisible();
    await expectAccessible(theirPage, 'sign-up waiting for approval');
    await theirs.close();

    // The administrator's mail links to the decision page; the token is in the fragment.
    const link = await mailbox.link(boss.email, /\/app\/admin\/decide#token=/);
    const decider = await browser.newContext();
    const decidePage = await decider.newPage();
    await decidePage.goto(link);
    await expect(decidePage.getByRole('heading', { name: t('decide.title') })).toBeVisible();
    await expect(decidePage.getByText(newcomer)).toBeVisible();
    // The token left the address once read.
    await expect(decidePage).toHaveURL(/\/app\/admin\/decide$/);
    await expectAccessible(decidePage, 'decide');
    await screenshots(decidePage, 'admin-decide-en');
    await decidePage.getByRole('button', { name: t('requests.approve') }).click();
    await expect(decidePage.getByText(t('decide.done.approved', { email: newcomer }))).toBeVisible();
    await decider.close();
    // The person is mailed the outcome.
    await mailbox.waitFor(newcomer, { match: /approv/i });

    // The console's Requests no longer lists it.
    await page.getByRole('link', { name: t('nav.requests') }).click();
    await expect(page.getByText(t('requests.none'))).toBeVisible();
  });

  test('security policy and audit trail: require two-step, then see it in the trail and export it', async ({
    page,
    request,
  }) => {
    const boss = await anAdministrator(request);
    await openConsole(page, boss);
    await page.getByRole('link', { name: t('nav.securityPolicy') }).click();
    await expect(page.getByRole('heading', { name: t('policy.title') })).toBeVisible();
    await page.getByLabel(t('policy.requireTwoStep')).check();
    await page.getByLabel(t('policy.grace')).fill('7');
    await page.getByLabel(t('policy.lifetime')).selectOption({ label: '7 days' });
    await expectAccessible(page, 'security policy');
    await screenshots(page, 'admin-policy-en');
    await page.getByRole('button', { name: t('save') }).click();
    await expect(page.getByText(t('policy.saved')).first()).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(t('policy.requireTwoStep'))).toBeChecked();
    await expect(page.getByLabel(t('policy.grace'))).toHaveValue('7');

    await page.getByRole('link', { name: t('nav.audit') }).click();
    await expect(page.getByRole('heading', { name: t('audit.title') })).toBeVisible();
    const events = page.getByRole('list', { name: t('audit.title') });
    await expect(events.getByText(t('audit.kinds.policy_changed')).first()).toBeVisible();
    await page.getByLabel(t('audit.kind')).selectOption({ label: t('audit.kinds.policy_changed') });
    await page.getByRole('button', { name: t('audit.apply') }).click();
    await expect(events.getByText(t('audit.kinds.sign_in'))).toHaveCount(0);
    await expectAccessible(page, 'audit');
    await screenshots(page, 'admin-audit-en');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: t('audit.export') }).click();
    const file = await download;
    const csv = await (await file.createReadStream()).toArray();
    const text = Buffer.concat(csv as Buffer[]).toString('utf8');
    expect(text.split('\n')[0]).toMatch(/^at,kind,action/);
    expect(text).toContain('policy_changed');
  });

  test('requires two-step verification: the next password sign-in of someone without it sets it up before getting in', async ({
    page,
    browser,
    request,
  }) => {
    const boss = await anAdministrator(request);
    const member = await createAccount(request, `member-${Date.now().toString(36)}@${boss.domain}`);
    await openConsole(page, boss);
    await page.getByRole('link', { name: t('nav.securityPolicy') }).click();
    await page.getByLabel(t('policy.requireTwoStep')).check();
    await page.getByLabel(t('policy.grace')).fill('0');
    await page.getByRole('button', { name: t('save') }).click();
    await expect(page.getByText(t('policy.saved')).first()).toBeVisible();

    const theirs = await browser.newContext();
    const theirPage = await theirs.newPage();
    const step = texts('en', 'loginStep');
    await theirPage.goto('/user/login');
    await new AccountScreens(theirPage).logIn(member.email, member.password);
    // The enrolment step itself (code, recovery codes, the home, the next sign-in) is account-enrol.spec.ts's.
    await expect(theirPage.getByRole('heading', { name: step('enrol.title'), level: 1 })).toBeVisible();
    await expect(theirPage.getByTestId('totp-secret')).toBeVisible();
    // No session before the second factor is set up.
    expect(await theirPage.evaluate(() => localStorage.getItem('authorization'))).toBeNull();
    await expectAccessible(theirPage, 'enrol');
    await theirs.close();
  });

  test('Ask for access on the single-sign-on error page: one confirmation whatever the domain', async ({ page }) => {
    await page.goto('/login-error-sso?reason=not-configured');
    const access = texts('en', 'access');
    await page.getByRole('button', { name: access('ask') }).click();
    await page.getByLabel(access('email')).fill(uniqueEmail('nobody'));
    await expectAccessible(page, 'ask for access');
    await page.getByRole('button', { name: access('send') }).click();
    await expect(page.getByText(access('sent'))).toBeVisible();
    await expectAccessible(page, 'ask for access sent');
  });
});

test.describe('administrators and the domain proof', () => {
  test('an administrator adds a second administrator and removes them; the last one cannot leave', async ({
    page,
    request,
  }) => {
    const boss = await anAdministrator(request);
    const second = await createAccount(request, `second-${Date.now().toString(36)}@${boss.domain}`);
    await openConsole(page, boss);
    await page.getByRole('link', { name: t('nav.admins') }).click();
    await expect(page).toHaveURL(/\/app\/admin\/administrators$/);
    const list = page.getByRole('list', { name: t('admins.title'), exact: true });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list.getByRole('listitem').getByText(t('admins.via.operator'))).toBeVisible();
    await expectAccessible(page, 'admins');

    await page.getByLabel(t('admins.email')).fill(second.email);
    await page.getByRole('button', { name: t('admins.add') }).click();
    await expect(page.getByText(t('admins.added', { email: second.email })).first()).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(2);
    const theirs = list.getByRole('listitem').filter({ hasText: second.email });
    await expect(theirs.getByText(t('admins.via.admin'))).toBeVisible();
    await expectAccessible(page, 'admins added');
    await screenshots(page, 'admin-admins-en');

    const name = `${second.firstName} ${second.lastName}`;
    await theirs.getByRole('button', { name: t('admins.removeWho', { name }) }).click();
    const confirm = page.getByRole('dialog', { name: t('admins.confirmRemove.title', { name }) });
    await expectAccessible(page, 'admins confirm');
    await confirm.getByRole('button', { name: t('admins.remove') }).click();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(page.getByRole('status').filter({ hasText: t('admins.removed', { name }) })).toBeVisible();
    // What the server holds, not only what the page shows: the operator's list.
    expect(admin('domain', 'admin', 'list', boss.domain)).not.toContain(second.email);

    await page.getByRole('button', { name: t('admins.leave') }).click();
    await page
      .getByRole('dialog', { name: t('admins.confirmLeave.title', { domain: boss.domain }) })
      .getByRole('button', { name: t('admins.leave') })
      .click();
    await expect(page.getByText(texts('en', 'errors')('ERR_ADMIN_LAST'))).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expectAccessible(page, 'admins last');
  });

  test('a person of a company domain proves it with a TXT record: missing, then wrong, then right makes them its administrator', async ({
    page,
    request,
  }) => {
    const person = await createAccount(request, uniqueEmail('it'));
    const domain = domainOf(person.email);
    await signInWithStorage(page, person, '/app');
    // The way in is the Administration entry of the home's sections (no card among the meetings).
    const entry = page
      .getByRole('navigation', { name: homeT('nav.label') })
      .getByRole('link', { name: homeT('nav.admin'), exact: true });
    await expect(entry).toBeVisible();
    await expect(page.getByText(t('setup.text', { domain }))).toHaveCount(0);
    await expectAccessible(page, 'home with set up administration');
    await entry.click();
    await expect(page).toHaveURL(/\/app\/admin\/prove-domain$/);
    await expect(page.getByRole('heading', { level: 1, name: t('claim.title') })).toBeVisible();
    const name = `_suite-challenge.${domain}`;
    await expect(page.getByText(name, { exact: true })).toBeVisible();
    const value = (await page
      .locator('code')
      .filter({ hasText: /^suite-verify=/ })
      .textContent())!;
    expect(value).toMatch(/^suite-verify=[\w-]{20,}$/);
    await page.getByText(t('claim.howtoTitle')).click();
    await expectAccessible(page, 'claim');
    await screenshots(page, 'admin-claim-en');

    const check = page.getByRole('button', { name: t('claim.check') });
    const errors = texts('en', 'errors');
    await check.click();
    await expect(page.getByText(errors('ERR_CLAIM_RECORD_MISSING'))).toBeVisible();
    await expectAccessible(page, 'claim missing');

    dnsZone.txt(name, 'suite-verify=not-the-value');
    await check.click();
    await expect(page.getByText(errors('ERR_CLAIM_RECORD_MISMATCH'))).toBeVisible();
    await expectAccessible(page, 'claim mismatch');
    await screenshots(page, 'admin-claim-mismatch-en');

    dnsZone.txt(name, 'v=spf1 -all', value);
    await check.click();
    await expect(page.getByText(t('claim.proven', { domain }))).toBeVisible();
    await expectAccessible(page, 'claim proven');
    await page.getByRole('link', { name: t('open') }).click();
    await expect(page.getByRole('heading', { level: 1, name: t('title') })).toBeVisible();
    await page.getByRole('link', { name: t('nav.admins') }).click();
    const list = page.getByRole('list', { name: t('admins.title'), exact: true });
    await expect(list.getByRole('listitem').getByText(t('admins.via.dns'))).toBeVisible();
    dnsZone.remove(name);
  });
});

test.describe('the console in the other languages', () => {
  for (const lang of ['pt', 'es', 'hi', 'it'] as Lang[]) {
    test(`${lang}: every section in its texts, accessible`, async ({ browser, request }) => {
      const boss = await anAdministrator(request);
      const context = await browser.newContext({ locale: BROWSER_LOCALE[lang] });
      const page = await context.newPage();
      const tl = texts(lang, 'admin');
      await signInWithStorage(page, boss, '/app');
      await page.getByRole('link', { name: texts(lang, 'home')('nav.admin'), exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: tl('title') })).toBeVisible();
      for (const [section, heading] of [
        ['people', 'people.title'],
        ['requests', 'requests.title'],
        ['signupRules', 'signup.title'],
        ['securityPolicy', 'policy.title'],
        ['audit', 'audit.title'],
        ['admins', 'admins.title'],
      ] as const) {
        await page.getByRole('link', { name: tl(`nav.${section}`) }).click();
        await expect(page.getByRole('heading', { level: 2, name: tl(heading), exact: true })).toBeVisible();
        await expectAccessible(page, `${lang} ${section}`);
        if (lang === 'hi') await screenshots(page, `admin-${section}-hi`);
      }
      // The DNS proof page, as an administrator sees it (already proven: checking again renews it).
      await page.getByRole('link', { name: tl('admins.claimLink') }).click();
      await expect(page.getByRole('heading', { level: 1, name: tl('claim.title') })).toBeVisible();
      await expect(page.getByText(tl('claim.already', { domain: boss.domain }))).toBeVisible();
      await page.getByText(tl('claim.howtoTitle')).click();
      await expectAccessible(page, `${lang} prove domain`);
      if (lang === 'hi') await screenshots(page, 'admin-claim-hi');
      await context.close();
    });
  }
});
