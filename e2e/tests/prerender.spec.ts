import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/test';
import { renderedFonts } from '../pages/fonts';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';
import { holdAppScript } from '../pages/hold-app';

/**
 * Entry screens arrive prerendered in the language the server picks from Accept-Language and are
 * hydrated: the heading is in the HTML itself, React reports no hydration mismatch, nothing moves when
 * the JavaScript arrives, and what a person typed before it did stays.
 */
const SCREENS = [
  '/user/login',
  '/user/signup',
  '/user/recovery-password',
  '/user/check-token',
  '/user/check-token-recovery',
  '/user/welcome',
  '/user/update-password',
  '/guest',
  '/confirm-invite',
  '/file/000000000000000000000000/download_link',
  '/supported-browser',
  '/login-error-sso',
  '/clear',
];

/** Console messages that say hydration went wrong (React's mismatch warnings and recoverable errors). */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type()) && /hydrat|did not match|server rendered/i.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** The layout shifts of the page so far (PerformanceObserver, buffered: from the first paint on). */
async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        // The buffered entries are delivered in the observer's first callback, before the next frame's.
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
      }),
  );
}

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`prerendered entry screens (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('each comes as HTML in the language asked for and hydrates without a mismatch, keeping its markup', async ({
      page,
      request,
    }) => {
      // The heading as the HTML parsed it: a screen whose markup React throws away and renders again (its
      // code or texts were not loaded before hydration) would lose what was typed into it meanwhile.
      await page.addInitScript(() =>
        document.addEventListener('DOMContentLoaded', () => {
          (window as { parsedHeading?: Element | null }).parsedHeading = document.querySelector('h1');
        }),
      );
      for (const path of SCREENS) {
        const answer = await request.get(path, { headers: { 'accept-language': `de-DE, ${BROWSER_LOCALE[lang]}` } });
        expect(answer.headers().vary, path).toContain('Accept-Language');
        const html = await answer.text();
        expect(html, path).toContain(`data-lang="${lang}"`);
        expect(html, path).toMatch(/<h1[\s>]/);
        if (path.startsWith('/user/')) {
          // The step's own panel, painted with the form: its picture inline, its sentence in words.
          const step = path.slice('/user/'.length);
          expect(html, path).toContain(`user-layout__panel--${step}`);
          expect(html, path).toMatch(/<div class="user-layout__art"><svg viewBox="0 0 160 120"/);
          expect(html, path).toContain(texts(lang, 'common')(`userLayout.step.${step}`).replace(/'/g, '&#x27;'));
        }

        const problems = watchConsole(page);
        await page.goto(path);
        await expect(page.locator('html[data-hydrated]'), path).toHaveCount(1);
        await expect(page.locator('h1').first(), path).toBeVisible();
        // The server's settings and any late texts have come and been applied.
        await page.waitForLoadState('networkidle');
        const kept = await page.evaluate(() => {
          const parsed = (window as { parsedHeading?: Element | null }).parsedHeading;
          return !!parsed && parsed === document.querySelector('h1');
        });
        expect(kept, `${path}: the prerendered heading is still the one on the page`).toBe(true);
        expect(problems, path).toEqual([]);
        page.removeAllListeners('console');
        page.removeAllListeners('pageerror');
      }
    });
  });
}

test.describe('prerendered entry screens: nothing moves, nothing typed is lost', () => {
  test.use({ locale: 'en-US' });

  // The glyphs of a page's first frame come in its HTML; every other character is in the full Poppins
  // files, which arrive for it or (a slow network) are not swapped in later (fonts.css: font-display
  // optional). This test holds those files until the page is hydrated, so that it measures a late face
  // as well as the hydration: neither may move anything.
  test('no layout shift when the JavaScript arrives, nor when Poppins files arrive after the first paint', async ({
    page,
  }) => {
    let release!: () => void;
    const fontsHeld = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\.woff2$/, async (route) => {
      await fontsHeld;
      await route.continue();
    });
    for (const path of [
      '/user/login',
      '/user/signup',
      '/user/recovery-password',
      '/guest',
      '/supported-browser',
      '/clear',
    ]) {
      // (The load event waits for the held fonts: the first layout asked for them.)
      await page.goto(path, { waitUntil: 'domcontentloaded' });
      await expect(page.locator('html[data-hydrated]'), path).toHaveCount(1);
      // Nothing a person could see: under 0.001 (CLS counts 0.1 as "good"); sub-pixel moves of a busy
      // machine's late layout stay far below it, a line that re-wraps (0.005) does not.
      expect(await layoutShift(page), path).toBeLessThan(0.001);
      if (path === '/user/login') {
        // The page is drawn in Poppins although every font file is held: its own glyphs came with it.
        expect(await renderedFonts(page, 'h1')).toEqual(['Poppins SemiBold']);
        // A letter it lacks (typed) waits for the held file; that file arriving must move nothing.
        await page.getByRole('textbox', { name: texts('en', 'login')('email'), exact: true }).fill('xqz@jubx.biz');
        expect(await page.evaluate(() => document.fonts.check('16px Poppins', 'xqz')), 'Poppins held back').toBe(false);
        release();
        await expect.poll(() => page.evaluate(() => document.fonts.check('16px Poppins', 'xqz')), path).toBe(true);
        await page.evaluate(() => document.fonts.ready.then(() => undefined));
        expect(await layoutShift(page), `${path}: when Poppins arrives`).toBeLessThan(0.001);
      }
    }
  });

  test('an address typed before the JavaScript ran is still there after it did', async ({ page }) => {
    // The app's entry script is held back until the address has been typed into the prerendered form.
    const release = await holdAppScript(page);
    const email = texts('en', 'login')('email');
    await page.goto('/user/login', { waitUntil: 'commit' });
    const field = page.getByRole('textbox', { name: email, exact: true });
    await field.fill('ada@contoso.com');
    await expect(page.locator('html[data-hydrated]')).toHaveCount(0);
    release();
    await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
    await expect(field).toHaveValue('ada@contoso.com');
    // And it is React's value now: the form sends it (an unknown account is refused by the server).
    await page.getByRole('textbox', { name: texts('en', 'login')('password'), exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: texts('en', 'login')('submit'), exact: true }).click();
    await expect(page.getByRole('alert')).toBeVisible();
  });

  test('a person already in the password field when the JavaScript arrives keeps the caret there', async ({ page }) => {
    const release = await holdAppScript(page);
    const login = texts('en', 'login');
    await page.goto('/user/login', { waitUntil: 'commit' });
    const email = page.getByRole('textbox', { name: login('email'), exact: true });
    const password = page.getByRole('textbox', { name: login('password'), exact: true });
    await email.fill('ada@contoso.com');
    await password.click();
    await expect(page.locator('html[data-hydrated]')).toHaveCount(0);
    release();
    await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
    // The form's own arrival focus would have moved it to the address, and the password into it.
    await page.keyboard.type('not-the-password');
    await expect(password).toHaveValue('not-the-password');
    await expect(email).toHaveValue('ada@contoso.com');
  });

  test('an address carried from the last form, arriving in a field the person is already in, is replaced by what they type', async ({
    page,
  }) => {
    // The address typed at sign-in is carried to sign-up in the tab; the prerendered page cannot know it,
    // so it arrives with the app, possibly after the person clicked into the empty field.
    await page.goto('/user/login');
    const login = texts('en', 'login');
    await page.getByRole('textbox', { name: login('email'), exact: true }).fill('grace@contoso.com');
    await expect.poll(() => page.evaluate(() => sessionStorage.length)).toBeGreaterThan(0);
    const release = await holdAppScript(page);
    await page.goto('/user/signup', { waitUntil: 'commit' });
    const field = page.getByRole('textbox', { name: texts('en', 'signup')('email'), exact: true });
    await field.click();
    await expect(field).toHaveValue('');
    release();
    await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
    await expect(field).toHaveValue('grace@contoso.com');
    await page.keyboard.type('ada@contoso.com');
    await expect(field).toHaveValue('ada@contoso.com');
  });

  test('a form sent before the JavaScript ran is sent once it has, nothing typed in the address', async ({ page }) => {
    const release = await holdAppScript(page);
    const t = texts('en', 'login');
    const sent: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && sent.push(new URL(r.url()).pathname));
    await page.goto('/user/login', { waitUntil: 'commit' });
    await page.getByRole('textbox', { name: t('email'), exact: true }).fill('ada@contoso.com');
    await page.getByRole('textbox', { name: t('password'), exact: true }).fill('secret-typed-early');
    await page.getByRole('textbox', { name: t('password'), exact: true }).press('Enter');
    await expect(page.locator('html[data-hydrated]')).toHaveCount(0);
    release();
    // The app sends it as if submitted now: the server refuses the unknown account, said on the form.
    await expect(page.getByRole('alert')).toBeVisible();
    // Once, by the app: not by the browser to the page's own address.
    expect(sent.filter((path) => path === '/api/auth/login' || path === '/user/login')).toEqual(['/api/auth/login']);
    expect(page.url()).toMatch(/\/user\/login$/);
    await expect(page.getByRole('textbox', { name: t('password'), exact: true })).toHaveValue('secret-typed-early');
  });

  test('a language chosen in the footer wins over the one the server picked', async ({ page }) => {
    await page.goto('/user/login');
    await page.evaluate(() => localStorage.setItem('language', 'it'));
    await page.goto('/user/login');
    await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1, name: texts('it', 'login')('title') })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
  });
});
