import type { Page } from '@playwright/test';
import { expectAccessible } from '../fixtures/test';

/**
 * axe once the screen has settled: forms cross-fade in (opacity animation), and colour contrast
 * measured mid-fade is wrong. Endless animations (spinners) are not waited for.
 */
export async function accessible(page: Page, label: string, exclude: string[] = []): Promise<void> {
  const settled = () =>
    page.waitForFunction(
      () =>
        // A screen still loading its chunk shows the spinner; its form (and its fade) comes after.
        !document.querySelector('.page-loading') &&
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
          .every((a) => a.playState !== 'running'),
    );
  await settled();
  // Twice, a frame apart: a fade that starts right after the spinner goes is caught the second time.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await settled();
  await expectAccessible(page, label, exclude);
}
