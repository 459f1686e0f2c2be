import { createHash, randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, createAccount, mailbox, uniqueEmail, signInWithStorage, type Account } from '../fixtures/test';
import { texts } from '../pages/locale-texts';
import { appCode } from '../pages/security';
import { holdAppScript } from '../pages/hold-app';

/**
 * The fourth adversarial review, the browser's part: names others choose (a file's "shared by", an
 * inviter, a session's device label) and the address typed into the bar must reach the screen as text,
 * never as markup; the entry forms must not put the typed address in a URL. Each check fails if the hole
 * exists: an element the hostile text would have made is looked for in the page, and so is the text.
 */
const HOSTILE = '<img src=x id=pwned onerror=alert(1)>';

/** An account whose first name is markup, signed up through the API as the sign-up screens do. */
const hostileAccount = (request: APIRequestContext): Promise<Account> =>
  createAccount(request, uniqueEmail('mallory'), { firstName: HOSTILE, lastName: 'Lovelace' });

/** Nothing the hostile text would have built is in the document, and no alert was raised. */
async function expectInert(page: Page, dialogs: string[]) {
  await expect(page.locator('#pwned')).toHaveCount(0);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(dialogs).toEqual([]);
}
const watchDialogs = (page: Page) => {
  const seen: string[] = [];
  page.on('dialog', (d) => {
    seen.push(d.message());
    void d.dismiss();
  });
  return seen;
};

test.describe('adversarial review 4 (browser)', () => {
  test('a markup name is shown as text on the download page ("shared by")', async ({ page, browser }) => {
    const mallory = await hostileAccount(page.request);
    const auth = { authorization: `Bearer ${mallory.token}` };
    const uploaded = await page.request.post('/api/files', {
      headers: auth,
      multipart: { file: { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') } },
    });
    expect(uploaded.status(), await uploaded.text()).toBeLessThan(300);
    const { _id } = (await uploaded.json()) as { _id: string };
    const link = await page.request.post(`/api/files/${_id}/shares`, { headers: auth, data: {} });
    expect(link.status(), await link.text()).toBeLessThan(300);
    const { url } = (await link.json()) as { url: string };

    const visitorContext = await browser.newContext({ acceptDownloads: true });
    const visitor = await visitorContext.newPage();
    const dialogs = watchDialogs(visitor);
    await visitor.goto(url);
    await expect(visitor.getByText(`Shared by ${HOSTILE} Lovelace`)).toBeVisible();
    await expectInert(visitor, dialogs);
    await visitorContext.close();
  });

  test("a markup inviter's name is shown as text on the invitation page", async ({ page, browser }) => {
    const mallory = await hostileAccount(page.request);
    const domain = mallory.email.split('@')[1]!;
    const invitee = `victim-${randomBytes(3).toString('hex')}@${domain}`;
    const sent = await page.request.post('/api/invite/teammates', {
      headers: { authorization: `Bearer ${mallory.token}` },
      data: { emails: [invitee] },
    });
    expect(sent.status(), await sent.text()).toBeLessThan(300);
    const link = await mailbox.link(invitee, /\/confirm-invite\?inviteToken=/);
    const context = await browser.newContext();
    const victim = await context.newPage();
    const dialogs = watchDialogs(victim);
    await victim.goto(link);
    await expect(victim.getByText(HOSTILE, { exact: false }).first()).toBeVisible();
    await expectInert(victim, dialogs);
    await context.close();
  });

  test("a markup device label (the sign-in's User-Agent) is shown as text in the sessions section", async ({
    page,
  }) => {
    const mallory = await hostileAccount(page.request);
    // A second sign-in whose browser says it is markup.
    const other = await page.request.post('/api/auth/login', {
      headers: { 'user-agent': HOSTILE },
      data: { login: mallory.email, password: mallory.password },
    });
    expect(other.status()).toBe(200);
    const dialogs = watchDialogs(page);
    await signInWithStorage(page, mallory, '/app/sessions');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('main')).not.toContainText('Loading');
    await expectInert(page, dialogs);
  });

  test('the not-found page reflects nothing of the address asked for', async ({ page }) => {
    const dialogs = watchDialogs(page);
    const res = await page.goto(`/${encodeURIComponent(HOSTILE)}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('body')).not.toContainText('onerror');
    await expectInert(page, dialogs);
  });

  test('the address typed at sign-in is carried in the tab, never in a URL', async ({ page }) => {
    const email = uniqueEmail('carried');
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    page.on('framenavigated', (f) => urls.push(f.url()));
    await page.goto('/user/login');
    await page.getByRole('textbox', { name: /email/i }).fill(email);
    await page.getByRole('textbox', { name: /email/i }).press('Enter');
    // Whatever the next screen is (password, sign-up, SSO), wait for it to settle.
    await page.waitForLoadState('networkidle');
    const encoded = [email, encodeURIComponent(email)];
    expect(urls.filter((u) => encoded.some((e) => u.includes(e)))).toEqual([]);
    // Not in storage another tab or a later visit reads either.
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(email);
  });
});

/**
 * The fifth review: the prerendered entry pages' boot script (build/prerender.mjs) changed. Every inline
 * script a page carries must be one the page's CSP names by hash (no 'unsafe-inline' anywhere), and a
 * form sent before the app took over must go to the app's API once, however often it was sent.
 */
const ENTRY_PAGES = ['/user/login', '/user/signup', '/user/recovery-password', '/user/update-password', '/guest'];

test.describe('adversarial review 5 (browser)', () => {
  test("every inline script of the entry pages is one the CSP's hashes name; nothing is 'unsafe-inline'", async ({
    request,
  }) => {
    for (const path of ENTRY_PAGES) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      const csp = res.headers()['content-security-policy'] ?? '';
      const directive = (name: string) =>
        csp
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .find(([n]) => n === name)
          ?.slice(1) ?? [];
      const scriptSrc = directive('script-src');
      expect(scriptSrc, path).not.toContain("'unsafe-inline'");
      expect(scriptSrc, path).not.toContain("'unsafe-eval'");
      expect(directive('style-src'), path).not.toContain("'unsafe-inline'");
      const html = await res.text();
      const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(inline.length, `${path}: the boot script`).toBeGreaterThan(0);
      for (const text of inline) {
        const hash = `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
        expect(scriptSrc, `${path}: an inline script the CSP does not name`).toContain(hash);
      }
      // No inline event handler attribute either (a hash does not cover those).
      expect(html, path).not.toMatch(/<[^>]+\son[a-z]+=/i);
    }
  });

  test('the entry pages load with no CSP violation', async ({ page }) => {
    // Listening from the document's start: a blocked inline script or style is reported as it is met.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const blocked: string[] = [];
    page.on('console', (m) => /Content Security Policy/i.test(m.text()) && blocked.push(m.text()));
    for (const path of ENTRY_PAGES) {
      await page.goto(path);
      await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
      const seen = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
      expect(seen, path).toEqual([]);
    }
    expect(blocked).toEqual([]);
  });

  test('a form sent twice before the app took over is sent once, to the API, the password in no URL', async ({
    page,
  }) => {
    const release = await holdAppScript(page);
    const password = `early-${randomBytes(4).toString('hex')}`;
    const sent: string[] = [];
    const urls: string[] = [];
    page.on('request', (r) => {
      urls.push(r.url());
      if (r.method() === 'POST') sent.push(new URL(r.url()).pathname);
    });
    page.on('framenavigated', (f) => urls.push(f.url()));
    await page.goto('/user/login', { waitUntil: 'commit' });
    await page.getByRole('textbox', { name: /email/i }).fill(uniqueEmail('early'));
    const field = page.getByLabel(/password/i).first();
    await field.fill(password);
    await field.press('Enter');
    await field.press('Enter');
    await expect(page.locator('html[data-hydrated]')).toHaveCount(0);
    release();
    await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
    await expect(page.getByRole('alert')).toBeVisible();
    expect(sent.filter((p) => p === '/api/auth/login' || p.startsWith('/user/'))).toEqual(['/api/auth/login']);
    expect(urls.filter((u) => u.includes(password))).toEqual([]);
    const origin = new URL(page.url()).origin;
    expect(urls.filter((u) => u.startsWith('http') && new URL(u).origin !== origin)).toEqual([]);
  });
});

test.describe('adversarial review 5 (browser): the recovery path on a two-step account', () => {
  test('the mailbox alone saves no password: the code step asks, a wrong code is refused, a recovery code works once', async ({
    page,
    request,
  }) => {
    const t = texts('en', 'updatePassword');
    const step = texts('en', 'loginStep');
    const account = await createAccount(request);
    const auth = { authorization: `Bearer ${account.token}` };
    const setup = await request.post('/api/v2/user/totp/setup', { headers: auth });
    expect(setup.status(), await setup.text()).toBe(200);
    const secret = ((await setup.json()) as { secret: string }).secret;
    const on = await request.post('/api/v2/user/totp/enable', { headers: auth, data: { code: appCode(secret, -1) } });
    expect(on.status(), await on.text()).toBe(200);
    const codes = ((await on.json()) as { recovery_codes: string[] }).recovery_codes;

    // The mailbox: the recovery code mailed, typed on the code screen, then a new password.
    await page.goto('/user/recovery-password');
    await page.getByRole('textbox', { name: texts('en', 'recovery')('email'), exact: true }).fill(account.email);
    await page.getByRole('button', { name: texts('en', 'recovery')('submit'), exact: true }).click();
    await expect(page).toHaveURL(/\/user\/check-token-recovery$/);
    // The third mail: the sign-up code, the "two-step turned on" notice, then the recovery code.
    const sent = await mailbox.code(account.email, { count: 3 });
    await page.keyboard.type(sent, { delay: 20 });
    await expect(page).toHaveURL(/\/user\/update-password$/);
    await page.getByRole('textbox', { name: t('password'), exact: true }).fill('Brand-New-Pass-7');
    await page.getByRole('textbox', { name: t('confirmation'), exact: true }).fill('Brand-New-Pass-7');
    await page.getByRole('button', { name: t('submit') }).click();
    await expect(page.getByTestId('update-code-step')).toBeVisible();
    // The password did not change on the mailbox's word alone.
    const old = await request.post('/api/auth/login', { data: { login: account.email, password: account.password } });
    expect(((await old.json()) as { second_step?: string }).second_step).toBe('totp');

    await page.getByRole('button', { name: step('useRecovery') }).click();
    const field = page.getByRole('textbox', { name: step('recovery'), exact: true });
    await field.fill('aaaaa-bbbbb');
    const refused = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/user\//.test(r.url()));
    await page.getByRole('button', { name: t('submit') }).click();
    expect((await refused).status()).toBe(400);
    await expect(page.getByTestId('update-code-step').getByRole('alert')).toBeVisible();
    await field.fill(codes[0]!);
    await page.getByRole('button', { name: t('submit') }).click();
    await expect(page).toHaveURL(/\/app/);
    // Spent: the same recovery code opens no sign-in.
    const again = await request.post('/api/auth/login', {
      data: { login: account.email, password: 'Brand-New-Pass-7' },
    });
    const pending = (await again.json()) as { pending_token: string };
    const second = await request.post('/api/auth/login/second-step', {
      data: { email: account.email, pending_token: pending.pending_token, code: codes[0] },
    });
    expect(second.status()).toBe(400);
  });
});
