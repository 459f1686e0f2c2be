import type { Page } from '@playwright/test';
import { test, expect, createAccount, signInWithStorage, uniqueEmail } from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { screenSettled } from '../pages/a11y';

/**
 * Buttons in the dark scheme: every button of the home's sections, the console and the entry screens is
 * on-brand (the blue, the destructive red, or the card's own surface with light-blue or red text) and
 * readable (4.5:1), also right after the system switches from light to dark. The page's animations are
 * held still while the scheme changes: a colour that eased from light to dark would be caught mid-way,
 * the grey buttons a walker saw.
 */
const ALLOWED_FILLS = new Set([
  'rgba(0, 0, 0, 0)',
  'rgb(14, 116, 204)', // the brand blue (primary)
  'rgb(10, 91, 161)', // its hover
  'rgb(217, 48, 37)', // the destructive red with white text at 4.8:1
  'rgb(27, 34, 39)', // the dark card (secondary, quiet destructive)
  'rgb(18, 23, 27)', // the dark page
  'rgb(23, 50, 74)', // the dark blue tint
]);

interface Found {
  name: string;
  fill: string;
  contrast: number;
}

/** Every visible button with its fill and its text's contrast against what is seen behind the text. */
const buttonsOf = (page: Page): Promise<Found[]> =>
  page.evaluate(() => {
    const channels = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    const opaqueBehind = (el: Element | null): string => {
      while (el) {
        const bg = getComputedStyle(el).backgroundColor;
        if (bg !== 'rgba(0, 0, 0, 0)' && !getComputedStyle(el).backgroundImage.includes('gradient')) return bg;
        el = el.parentElement;
      }
      return getComputedStyle(document.body).backgroundColor;
    };
    return Array.from(document.querySelectorAll<HTMLElement>('button, a.btn'))
      .filter((el) => el.checkVisibility() && el.getBoundingClientRect().width > 0 && el.innerText.trim())
      .map((el) => {
        const style = getComputedStyle(el);
        const [a, b] = [luminance(channels(style.color)), luminance(channels(opaqueBehind(el)))];
        return {
          name: el.innerText.trim().slice(0, 40),
          fill: style.backgroundColor,
          contrast: Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100,
        };
      });
  });

async function checkDark(page: Page, label: string): Promise<void> {
  await screenSettled(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Animation.enable');
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 0 });
  await page.emulateMedia({ colorScheme: 'dark' });
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 360, height: 740 },
  ]) {
    await page.setViewportSize(viewport);
    const found = await buttonsOf(page);
    expect(found.length, `${label}: buttons found`).toBeGreaterThan(0);
    for (const button of found) {
      expect(
        ALLOWED_FILLS.has(button.fill),
        `${label} ${viewport.width}: "${button.name}" is filled ${button.fill}`,
      ).toBe(true);
      expect(button.contrast, `${label} ${viewport.width}: "${button.name}" text contrast`).toBeGreaterThanOrEqual(4.5);
    }
    if (process.env.DARK_SHOTS)
      await page.screenshot({ path: `${process.env.DARK_SHOTS}/${label.replace(/\W+/g, '-')}-${viewport.width}.png` });
  }
  await cdp.send('Animation.setPlaybackRate', { playbackRate: 1 });
  await cdp.detach();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('home sections and the console: every button on-brand and readable right after a switch to dark', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const account = await createAccount(request, uniqueEmail('admin'));
  admin('domain', 'admin', 'add', account.email.split('@')[1]!, account.email);
  await signInWithStorage(page, account, '/app');
  for (const path of ['/app/meetings', '/app/files', '/app/security', '/app/sessions', '/app/admin']) {
    await page.goto(path);
    await expect(page.locator('main h1, main h2').first()).toBeVisible();
    await expect(page.locator('.page-loading')).toHaveCount(0);
    await checkDark(page, path);
  }
});

test('entry screens: every button on-brand and readable right after a switch to dark', async ({ page }) => {
  for (const path of ['/user/login', '/user/signup', '/user/recovery-password', '/guest', '/no-such-page']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await checkDark(page, path);
  }
});
