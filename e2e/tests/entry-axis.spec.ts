import { test, expect, uniqueEmail } from '../fixtures/test';
import { AccountScreens } from '../pages/account';

// The /user forms share one left edge: the code screen reads like its neighbours, not centred.
test('the code screen: heading, boxes and quiet links from the form’s left edge, one quiet look', async ({ page }) => {
  const ui = new AccountScreens(page);
  const email = uniqueEmail('axis');
  await page.goto('/user/signup');
  await ui.signUp(email);
  await ui.expectCodeScreen(email);
  const left = async (name: Parameters<typeof page.getByRole>[0], label: string | RegExp) =>
    (await page.getByRole(name, { name: label }).first().boundingBox())!.x;
  const heading = await left('heading', 'Check your email');
  expect(Math.abs((await left('textbox', /Digit 1 of 6/)) - heading)).toBeLessThanOrEqual(2);
  expect(Math.abs((await left('button', 'Back')) - heading)).toBeLessThanOrEqual(2);
  // "Back" and "Wrong address? Change it": the same weight and size, on one baseline.
  const look = (el: HTMLElement) => {
    const s = getComputedStyle(el);
    return `${s.fontWeight} ${s.fontSize}`;
  };
  const back = page.getByRole('button', { name: 'Back' });
  const change = page.getByRole('link', { name: 'Wrong address? Change it' });
  expect(await back.evaluate(look)).toBe(await change.evaluate(look));
  const [b, c] = [(await back.boundingBox())!, (await change.boundingBox())!];
  expect(Math.abs(b.y + b.height - (c.y + c.height))).toBeLessThanOrEqual(2);
});

test('the login: "Forgot your password?" and "Sign in with a passkey" on one baseline, one look', async ({ page }) => {
  await page.goto('/user/login');
  const forgot = page.getByRole('link', { name: 'Forgot your password?' });
  const passkey = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(passkey).toBeVisible();
  const look = (el: HTMLElement) => {
    const s = getComputedStyle(el);
    return `${s.fontWeight} ${s.fontSize}`;
  };
  expect(await passkey.evaluate(look)).toBe(await forgot.evaluate(look));
  const [f, p] = [(await forgot.boundingBox())!, (await passkey.boundingBox())!];
  expect(Math.abs(f.y + f.height - (p.y + p.height))).toBeLessThanOrEqual(2);
});
