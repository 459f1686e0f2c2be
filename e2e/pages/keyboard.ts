import { expect, type Locator, type Page } from '@playwright/test';

/** Presses Tab until `target` has the focus (keyboard-only tests never click). */
export async function tabTo(page: Page, target: Locator, max = 25): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}
