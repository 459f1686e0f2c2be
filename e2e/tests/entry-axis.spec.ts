import { test, expect, uniqueEmail } from '../fixtures/test';
import { AccountScreens } from '../pages/account';
import { boxOf } from '../pages/box';

// The /user forms share one left edge: the code screen reads like its neighbours, not centred.
test('the code screen: heading, boxes and quiet links from the form’s left edge, one quiet look', async ({ page }) => {
  const ui = new AccountScreens(page);
  const email = uniqueEmail('axis');
  await page.goto('/user/signup');
  await ui.signUp(email);
  await ui.expectCodeScreen(email);
  const left = async (name: Parameters<typeof page.getByRole>[0], label: string | RegExp) =>
    (await boxOf(page.getByRole(name, { name: label }).first())).x;
  const heading = await left('heading', 'Check your email');
  expect(Math.abs((await left('textbox', /Digit 1 of 6/)) - heading)).toBeLessThanOrEqual(2);
  expect(Math.abs((await left('link', 'Back')) - heading)).toBeLessThanOrEqual(2);
  // One quiet way back: the link that takes the address along; no "Back" doing the same beside it.
  await expect(page.getByRole('button', { name: 'Back' })).toHaveCount(0);
  // The boxes fill the column: the sixth ends where the lead above it ends (3-3 groups kept).
  const lead = await boxOf(page.getByTestId('code-lead'));
  const sixth = await boxOf(page.getByRole('textbox', { name: /Digit 6 of 6/ }));
  expect(Math.abs(sixth.x + sixth.width - (lead.x + lead.width))).toBeLessThanOrEqual(2);
  const third = await boxOf(page.getByRole('textbox', { name: /Digit 3 of 6/ }));
  const fourth = await boxOf(page.getByRole('textbox', { name: /Digit 4 of 6/ }));
  const second = await boxOf(page.getByRole('textbox', { name: /Digit 2 of 6/ }));
  expect(fourth.x - (third.x + third.width)).toBeGreaterThan(third.x - (second.x + second.width) + 4);
  // A wrong code marks every box, the focused one too; the focus is a ring of its own outside the red.
  await page.keyboard.type('000000');
  const first = page.getByRole('textbox', { name: /Digit 1 of 6/ });
  await expect(first).toHaveAttribute('aria-invalid', 'true');
  await expect(first).toBeFocused();
  const looks = () =>
    first.evaluate((el) => ({ border: getComputedStyle(el).borderTopColor, ring: getComputedStyle(el).boxShadow }));
  const red = 'rgb(255, 75, 54)';
  await expect.poll(async () => (await looks()).border).toBe(red);
  await expect.poll(async () => (await looks()).ring).toContain('rgb(14, 116, 204)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(async () => (await looks()).border).toBe(red);
  await expect.poll(async () => (await looks()).ring).toContain('rgb(124, 192, 255)');
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
  const [f, p] = [await boxOf(forgot), await boxOf(passkey)];
  expect(Math.abs(f.y + f.height - (p.y + p.height))).toBeLessThanOrEqual(2);
});
