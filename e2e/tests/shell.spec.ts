import { test, expect, expectAccessible, clearStorage, createAccount, screenshots } from '../fixtures/test';
import { BASE_URL } from '../env';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A JWT-shaped token: /auth only decodes it (the server verifies on use). */
function token(payload: Record<string, unknown>): string {
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}.c2lnbmF0dXJl`;
}
const inOneHour = () => Math.floor(Date.now() / 1000) + 3600;
const user = { _id: 'u1', email: 'ana@acme.com', preferences: { theme: 'light' }, profile_id: 'p-42' };

/** A token link is never bound to the browser: the page asks "Continue as …?" first (login CSRF). */
async function continueAs(page: import('@playwright/test').Page, email: string) {
  await page.getByRole('button', { name: `Continue as ${email}` }).click();
}

const UA = {
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  ios: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.2849.68',
  oldIe: 'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko',
};

test.describe('root and frame', () => {
  test('/ goes to login without a stored authorization, and to the main app with one', async ({ page, request }) => {
    // A real session: the home checks it (its sessions list), and a refused one would go back to login.
    const { token: real } = await createAccount(request);
    await page.goto('/');
    await expect(page).toHaveURL(/\/user\/login$/);
    await page.evaluate((t) => localStorage.setItem('authorization', t), real);
    await page.goto('/');
    await expect(page).toHaveURL(/\/app$/);
  });

  test('an expired stored authorization counts as signed out', async ({ page }) => {
    await clearStorage(page);
    await page.evaluate((t) => localStorage.setItem('authorization', t), token({ user, exp: 1000 }));
    await page.goto('/');
    await expect(page).toHaveURL(/\/user\/login$/);
  });

  test('frame: 150 px logo linking to the main app, footer with the year and the app title', async ({ page }) => {
    await page.goto('/login-error-sso');
    const logo = page.getByRole('link', { name: /go to the main app/i });
    await expect(logo).toHaveAttribute('href', /\/app$/);
    const box = await logo.locator('svg').boundingBox();
    expect(Math.round(box?.width ?? 0)).toBe(150);
    await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear()} Suite`);
    await expect(page.getByText(/Your browser is not supported\. For the best experience/)).toHaveCount(0);
  });

  test('unknown addresses answer 404 and show a not-found page inside the frame', async ({ page }) => {
    expect((await page.goto('/no/such/page'))?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expectAccessible(page, 'not found');
    expect((await page.goto('/user/not-a-step'))?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect((await page.goto('/meet/team.sync/extra'))?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });
});

test.describe('unsupported browser warning', () => {
  test.use({ userAgent: UA.oldIe });
  test('the frame warns with MSG_HOMOLOGATED_BROWSER; the browser page says so and copies the page to open elsewhere', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/login-error-sso');
    await expect(page.getByText(/Your browser is not supported\. For the best experience/)).toBeVisible();
    await page.getByRole('link', { name: 'See supported browsers' }).click();
    await expect(page).toHaveURL(/\/supported-browser$/);
    await expect(page.getByRole('heading', { name: 'Unsupported browser' })).toBeVisible();
    await expect(page.getByTestId('browser-verdict')).toHaveText(
      'This browser is not supported. For the best experience, please use one of these browsers:',
    );
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      new URL('/login-error-sso', page.url()).href,
    );
  });
});

// The page says what it sees: a supported browser is told it works (it said "not supported" to everyone),
// and is not offered as an alternative to itself (Safari on iOS: nothing else to offer, no list).
for (const [os, ua, expected, mobile, verdict] of [
  ['macOS', UA.mac, ['Mozilla Firefox', 'Safari'], false, 'Google Chrome 130 works with Suite'],
  ['iOS', UA.ios, [], true, 'Safari 17 works with Suite'],
  ['Windows', UA.windows, ['Mozilla Firefox'], false, 'Google Chrome 130 works with Suite'],
  ['Windows (Edge)', UA.edge, ['Google Chrome', 'Mozilla Firefox'], false, 'Microsoft Edge 130 works with Suite'],
] as const) {
  test.describe(`supported browsers on ${os}`, () => {
    test.use({
      userAgent: ua,
      ...(mobile ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {}),
    });
    test(`says it works and lists ${expected.join(', ') || 'nothing'}${mobile ? ' with the mobile note' : ''}`, async ({
      page,
    }) => {
      await page.goto('/supported-browser');
      await expect(page.getByRole('heading', { name: 'Your browser is supported' })).toBeVisible();
      await expect(page.getByTestId('browser-verdict')).toContainText(verdict);
      await expect(page.getByText('This browser is not supported')).toHaveCount(0);
      const list = page.getByRole('list', { name: 'Suggested browsers' });
      if (expected.length === 0) await expect(list).toHaveCount(0);
      else {
        await expect(list.getByRole('link')).toHaveText([...expected]);
        // The list follows its lead line at the card's usual spacing (1rem), no blank band between them.
        const lead = await page.getByTestId('browser-verdict').boundingBox();
        const box = await list.boundingBox();
        expect(box!.y - (lead!.y + lead!.height)).toBeLessThanOrEqual(20);
      }
      await expect(page.getByTestId('mobile-note')).toHaveCount(mobile ? 1 : 0);
      await expectAccessible(page);
    });
  });
}

test.describe('/auth hand-off', () => {
  test('stores a valid token, sets the acting profile, drops the token and returns to the previous page', async ({
    page,
  }) => {
    await clearStorage(page);
    const t = token({ user, exp: inOneHour() });
    await page.goto(`/auth?token=${t}&redirect=${encodeURIComponent('/supported-browser?from=auth')}`);
    await continueAs(page, user.email);
    await expect(page).toHaveURL(/\/supported-browser\?from=auth$/);
    const stored = await page.evaluate(() => ({
      authorization: localStorage.getItem('authorization'),
      acting: JSON.parse(localStorage.getItem('acting_profile') ?? 'null'),
      user: JSON.parse(localStorage.getItem('user') ?? 'null'),
    }));
    expect(stored.authorization).toBe(t);
    expect(stored.acting).toEqual({ _id: 'p-42', info: { email: 'ana@acme.com' } });
    expect(stored.user.email).toBe('ana@acme.com');
  });

  test('keeps an acting profile that is already stored', async ({ page }) => {
    await clearStorage(page);
    await page.evaluate(() =>
      localStorage.setItem('acting_profile', JSON.stringify({ _id: 'mine', info: { email: 'x@y.com' } })),
    );
    await page.goto(`/auth?token=${token({ user, exp: inOneHour() })}&redirect=/supported-browser`);
    await continueAs(page, user.email);
    await expect(page).toHaveURL(/\/supported-browser$/);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('acting_profile')!)._id)).toBe('mine');
  });

  test('an expired token shows the authentication error and stores nothing', async ({ page }) => {
    await clearStorage(page);
    await page.goto(`/auth?token=${token({ user, exp: 1000 })}`);
    await expect(page.getByRole('heading', { name: 'This sign-in link has expired' })).toBeVisible();
    await expect(page).not.toHaveURL(/token=/);
    expect(await page.evaluate(() => localStorage.getItem('authorization'))).toBeNull();
    await expectAccessible(page);
  });

  // Targets that leave our origin (some only after the browser resolves them) are refused; the
  // hand-off still ends on the main app with the session stored, never stuck on "checking…".
  test('hostile redirect targets end on the main app, same origin, with the session stored', async ({
    page,
    request,
  }) => {
    const { token: real, email } = await createAccount(request);
    for (const target of [
      '/.//evil.example/x',
      '//evil.example/x',
      '/\\evil.example/x',
      '\\\\evil.example/x',
      'https://evil.example/x',
      'javascript:alert(1)',
      '/\t/evil.example/x',
    ]) {
      await test.step(target, async () => {
        await clearStorage(page);
        await page.goto(`/auth?token=${real}&redirect=${encodeURIComponent(target)}`);
        await continueAs(page, email);
        await expect(page).toHaveURL(`${BASE_URL}/app`);
        await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible();
        expect(await page.evaluate(() => localStorage.getItem('authorization'))).toBe(real);
      });
    }
  });

  test('without ?redirect= it returns to the page of ours that sent the user there', async ({ page }) => {
    await clearStorage(page);
    await page.goto('/supported-browser');
    const t = token({ user, exp: inOneHour() });
    await page.evaluate((url) => (window.location.href = url), `/auth?token=${t}`);
    await continueAs(page, user.email);
    await expect(page).toHaveURL(/\/supported-browser$/);
    expect(await page.evaluate(() => localStorage.getItem('authorization'))).toBe(t);
  });

  test('a foreign referrer (the token issuer) is not gone back to: the main app opens', async ({ page, request }) => {
    const { token: real, email } = await createAccount(request);
    await clearStorage(page);
    await page.goto(`/auth?token=${real}`, { referer: 'https://idp.example/login' });
    await continueAs(page, email);
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/app$/);
  });
});

test.describe('in Portuguese (pt-BR browser)', () => {
  test.use({ locale: 'pt-BR' });
  test('pages speak Portuguese and the html lang is pt-BR', async ({ page }) => {
    await clearStorage(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
    await expect(page.getByRole('status').filter({ hasText: /não guarda mais sua sessão/i })).toBeVisible();
    await page.goto(`/auth?token=${token({ user, exp: 1000 })}`);
    await expect(page.getByRole('heading', { name: /link de acesso expirou/i })).toBeVisible();
    await page.goto('/login-error-sso');
    await expect(page.getByRole('contentinfo')).toContainText(/direitos reservados/i);
    await expectAccessible(page);
  });
});

test.describe('in Hindi (hi browser)', () => {
  test.use({ locale: 'hi-IN' });
  test('the supported-browser page speaks Hindi', async ({ page }) => {
    await page.goto('/supported-browser');
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Unsupported browser');
  });
});

test('the language switcher changes the language and remembers it', async ({ page }) => {
  await page.goto('/login-error-sso');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await page.reload();
  await expect(page.getByRole('combobox')).toHaveValue('es');
});

test('/clear empties local storage and says so', async ({ page }) => {
  await page.goto('/login-error-sso');
  await page.evaluate(() => {
    localStorage.setItem('authorization', 'x');
    localStorage.setItem('guestId', 'g');
  });
  await clearStorage(page);
  await expect(page.getByRole('status')).toContainText('This browser no longer keeps your session');
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  await expectAccessible(page);
  await screenshots(page, 'clear');
});

test('/login-error-sso shows its title and text', async ({ page }) => {
  await page.goto('/login-error-sso');
  await expect(page.getByRole('heading', { name: 'We couldn’t sign you in with single sign\u2011on' })).toBeVisible();
  await expect(page.getByText(/domain administrator/)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'sso-error');
});

test('legal pages are styled within the CSP (no inline styles), in each language', async ({ page }) => {
  for (const name of ['terms-en', 'privacy-pt-br', 'terms-hi']) {
    await page.goto(`/legal/${name}.html`);
    await expect(page.locator('h1')).toHaveCSS('color', 'rgb(14, 116, 204)');
  }
  // Hindi in the self-hosted Poppins (its devanagari files), as in the app.
  const loaded = await page.evaluate(async () => {
    await document.fonts.ready;
    let count = 0;
    document.fonts.forEach((f) => {
      if (f.family.replace(/"/g, '') === 'Poppins' && f.status === 'loaded') count += 1;
    });
    return count;
  });
  expect(loaded).toBeGreaterThan(0);
  expect(await page.evaluate(() => document.fonts.check('400 16px Poppins', 'हिन्दी'))).toBe(true);
  await expectAccessible(page, 'legal page');
});
