import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/test';
import { renderedFonts } from '../pages/fonts';
import { texts } from '../pages/locale-texts';

/** The paths a fresh load of `path` requests until its heading shows and its fonts have loaded. */
async function firstLoad(page: Page, path: string): Promise<string[]> {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The prerendered heading is there before any script: the load is complete once the app has taken over.
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return requested;
}

const fontsOf = (paths: string[]) => paths.filter((p) => p.endsWith('.woff2'));

test.describe('fonts on an English page', () => {
  test.use({ locale: 'en-US' });
  test('the first frame is drawn in Poppins from the page itself; a character it lacks fetches the full face', async ({
    page,
  }) => {
    const requested = await firstLoad(page, '/user/login');
    // The glyphs of the page's text came in its HTML: no font file was fetched, Devanagari least of all.
    expect(fontsOf(requested)).toEqual([]);
    // The page's text is drawn in Poppins, not a fallback, in both weights (semibold heading, regular lead).
    expect(await renderedFonts(page, 'h1')).toEqual(['Poppins SemiBold']);
    expect(await renderedFonts(page, '.auth-form__lead')).toEqual(['Poppins']);
    // Letters the page does not show (a typed address) are in the full self-hosted face, fetched then.
    expect(await page.evaluate(() => document.fonts.check('400 16px Poppins', 'xqz'))).toBe(false);
    await page.getByRole('textbox', { name: texts('en', 'login')('email'), exact: true }).fill('xqz@jubx.biz');
    await expect.poll(() => fontsOf(requested).filter((f) => /poppins-latin-400-normal/.test(f)).length).toBe(1);
    await expect.poll(() => page.evaluate(() => document.fonts.check('400 16px Poppins', 'xqz'))).toBe(true);
    expect(fontsOf(requested).filter((f) => /devanagari/.test(f))).toEqual([]);
  });
});

test.describe('fonts on a Hindi page', () => {
  test.use({ locale: 'hi-IN' });
  test('the Devanagari Poppins face loads for the Hindi text', async ({ page }) => {
    const fonts = fontsOf(await firstLoad(page, '/user/login'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    expect(fonts.some((f) => /poppins-devanagari-400-normal/.test(f))).toBe(true);
  });

  test('a Devanagari face that arrives late still draws the text: no boxes, no fallback for the visit', async ({
    browser,
  }) => {
    // The heading's width drawn in Poppins (a visit whose fonts arrive at once)...
    const widthOfHeading = async (fontLate: boolean) => {
      const context = await browser.newContext({ locale: 'hi-IN' });
      const page = await context.newPage();
      let release = () => {};
      const late = new Promise<void>((resolve) => (release = resolve));
      await page.route(/poppins-devanagari-\d+-normal.*\.woff2$/, async (route) => {
        if (fontLate) await late;
        await route.continue();
      });
      // Not the load event: it waits for the preloaded faces.
      await page.goto('/user/login', { waitUntil: 'domcontentloaded' });
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toBeAttached();
      // ...against one whose Devanagari face comes well after the first frame.
      if (fontLate) {
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        release();
      }
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      await expect(heading).toBeVisible();
      const width = await heading.evaluate((h) => {
        const range = document.createRange();
        range.selectNodeContents(h);
        return Math.round(range.getBoundingClientRect().width);
      });
      await context.close();
      return width;
    };
    // Boxes are far narrower (75 px against 90 in Poppins, when the face was never used); a few pixels
    // come from the spaces, in the latin face or its metric-matched fallback, whichever made the frame.
    const late = await widthOfHeading(true);
    const onTime = await widthOfHeading(false);
    expect(Math.abs(late - onTime) / onTime).toBeLessThan(0.05);
  });
});

test.describe('the login page', () => {
  test.use({ locale: 'en-US' });
  test('its first load requests its own code only: nothing of the meeting or file features', async ({ page }) => {
    const requested = await firstLoad(page, '/user/login');
    const scripts = () => requested.filter((p) => p.startsWith('/assets/') && p.endsWith('.js'));
    // The form's code is asked for after the paint, and may come after the shell has hydrated.
    await expect.poll(() => scripts().some((s) => /\/login-form-/.test(s))).toBe(true);
    expect(scripts().filter((s) => /meeting|files?-|file-download|file-share/i.test(s))).toEqual([]);
    // Compressed as served, and the entry screen's own HTML loads its form with the entry, after the paint.
    const response = await page.request.get('/user/login', { headers: { 'accept-encoding': 'br' } });
    expect(response.headers()['content-encoding']).toBe('br');
    expect(await response.text()).toMatch(/<script data-load="[^"]* \/assets\/login-form-[\w-]+\.js[ "]/);
  });
});

/**
 * What the first paint of a prerendered /user page holds, from the browser's own timings: every
 * largest-contentful-paint entry, the first contentful paint, and the largest paint's element.
 */
async function paints(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ fcp: number; lcp: { at: number; connected: boolean; text: string; tag: string }[] }>((resolve) => {
        const lcp: { at: number; connected: boolean; text: string; tag: string }[] = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { element: Element | null })[])
            lcp.push({
              at: entry.startTime,
              connected: entry.element?.isConnected ?? false,
              text: entry.element?.textContent ?? '',
              tag: entry.element?.tagName ?? '',
            });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        // The buffered entries come in the observer's first callback, before the next frame's.
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            resolve({ fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1, lcp }),
          ),
        );
      }),
  );
}

for (const [locale, lang] of [
  ['en-US', 'en'],
  ['hi-IN', 'hi'],
] as const) {
  test.describe(`the largest paint (${lang})`, () => {
    test.use({ locale, viewport: { width: 412, height: 823 } });
    test('on a prerendered /user/login from the cache, the largest paint is in the first frame', async ({ page }) => {
      // Once to fill the cache (fonts, code), then the visit measured, as a returning person's.
      await firstLoad(page, '/user/login');
      await page.goto('/user/login');
      await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      const { fcp, lcp } = await paints(page);
      expect(fcp).toBeGreaterThan(0);
      expect(lcp.length).toBeGreaterThan(0);
      // No later, larger paint (a picture, a swapped font, a re-rendered form): every candidate is the
      // first frame's.
      for (const entry of lcp) expect(entry.at, `${entry.tag} "${entry.text}"`).toBe(fcp);
      // And its element is one the prerendered HTML brought, still on the page (hydration kept it).
      const largest = lcp[lcp.length - 1]!;
      expect(largest.connected).toBe(true);
      expect(largest.text).not.toBe('');
      const html = (await (await page.request.get('/user/login', { headers: { 'accept-language': locale } })).text())
        .replace(/&#x27;/g, "'")
        .replace(/&amp;/g, '&');
      expect(html).toContain(largest.text);
      // The text is drawn in Poppins from that first frame.
      expect(await renderedFonts(page, 'h1')).toEqual(['Poppins SemiBold']);
    });
  });
}
