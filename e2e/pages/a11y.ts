import type { Page } from '@playwright/test';
import { expectAccessible } from '../fixtures/test';

/**
 * axe once the screen has settled: forms cross-fade in (opacity animation), and colour contrast
 * measured mid-fade is wrong. Endless animations (spinners) are not waited for.
 */
export async function accessible(page: Page, label: string): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
      .every((a) => a.playState !== 'running'),
  );
  await expectAccessible(page, label);
}
