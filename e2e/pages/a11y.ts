import type { Page } from '@playwright/test';
import { expectAccessible } from '../fixtures/test';

/**
 * Resolves once the screen has settled: its chunk loaded (no spinner) and no finite animation running
 * (forms cross-fade in). Endless animations (spinners) are not waited for.
 */
export const screenSettled = (page: Page) =>
  page.waitForFunction(
    () =>
      // A screen still loading its chunk shows the spinner; its form (and its fade) comes after.
      !document.querySelector('.page-loading') &&
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .every((a) => a.playState !== 'running'),
  );

/** axe once the screen has settled: colour contrast measured mid-fade is wrong. */
export async function accessible(page: Page, label: string, exclude: string[] = []): Promise<void> {
  const settled = () => screenSettled(page);
  await settled();
  // Twice, a frame apart: a fade that starts right after the spinner goes is caught the second time.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await settled();
  await expectAccessible(page, label, exclude);
}
