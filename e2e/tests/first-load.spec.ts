import type { Page } from '@playwright/test';
import { test, expect } from '../fixtures/test';

/** The paths a fresh load of `path` requests until its heading shows and its fonts have loaded. */
async function firstLoad(page: Page, path: string): Promise<string[]> {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return requested;
}

const fontsOf = (paths: string[]) => paths.filter((p) => p.endsWith('.woff2'));

test.describe('fonts on an English page', () => {
  test.use({ locale: 'en-US' });
  test('the latin Poppins faces load, the Devanagari ones are never requested', async ({ page }) => {
    const fonts = fontsOf(await firstLoad(page, '/user/login'));
    expect(fonts.some((f) => /poppins-latin-400-normal/.test(f))).toBe(true);
    expect(fonts.filter((f) => /devanagari/.test(f))).toEqual([]);
    // The page's text is drawn in Poppins, not a fallback.
    expect(await page.evaluate(() => document.fonts.check('16px Poppins', 'Log in'))).toBe(true);
  });
});

test.describe('fonts on a Hindi page', () => {
  test.use({ locale: 'hi-IN' });
  test('the Devanagari Poppins face loads for the Hindi text', async ({ page }) => {
    const fonts = fontsOf(await firstLoad(page, '/user/login'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    expect(fonts.some((f) => /poppins-devanagari-400-normal/.test(f))).toBe(true);
  });
});

test.describe('the login page', () => {
  test.use({ locale: 'en-US' });
  test('its first load requests its own code only: nothing of the meeting or file features', async ({ page }) => {
    const scripts = (await firstLoad(page, '/user/login')).filter((p) => p.startsWith('/assets/') && p.endsWith('.js'));
    expect(scripts.some((s) => /\/login-form-/.test(s))).toBe(true);
    expect(scripts.filter((s) => /meeting|files?-|file-download|file-share/i.test(s))).toEqual([]);
    // Compressed as served, and the entry screen's own HTML loads its form with the entry, after the paint.
    const response = await page.request.get('/user/login', { headers: { 'accept-encoding': 'br' } });
    expect(response.headers()['content-encoding']).toBe('br');
    expect(await response.text()).toMatch(/<script data-load="[^"]* \/assets\/login-form-[\w-]+\.js[ "]/);
  });
});
