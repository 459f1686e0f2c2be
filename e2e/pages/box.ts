import { expect, type Locator } from '@playwright/test';

export type Box = { x: number; y: number; width: number; height: number };

/**
 * Where an element is drawn. `locator.boundingBox()` answers null when the element it found is replaced
 * or not laid out at that instant (a screen that re-renders as its settings or texts arrive): asked
 * again until it is there, within the expect timeout.
 */
export async function boxOf(locator: Locator): Promise<Box> {
  let box: Box | null = null;
  await expect
    .poll(async () => (box = await locator.boundingBox()) !== null, { message: `${locator} is laid out` })
    .toBe(true);
  return box!;
}
