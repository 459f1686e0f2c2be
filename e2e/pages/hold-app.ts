import type { Page } from '@playwright/test';

/**
 * Holds back the app's entry script, so that a test can act on the prerendered page before the app takes
 * it over; the returned function lets the script through. Call before the page is opened.
 */
export async function holdAppScript(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/app-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
