import { test, expect, createAccount } from '../fixtures/test';
import { screenSettled } from '../pages/a11y';
import { AccountScreens } from '../pages/account';
import { createMeeting } from '../pages/meeting-room';
import { texts } from '../pages/locale-texts';

/**
 * Rules every entry screen keeps (issue 23), each checked where a regression would break it: the caret
 * waits in the first field, nothing scrolls at 1280×800, and a message that appears moves nothing above it.
 */
test.use({ viewport: { width: 1280, height: 800 } });

const ENTRY = [
  ['/user/signup', texts('en', 'signup')('email')],
  ['/user/login', texts('en', 'login')('email')],
  ['/user/recovery-password', texts('en', 'recovery')('email')],
] as const;

test('entry screens: the caret is in the first field on arrival, and nothing scrolls at 1280×800', async ({
  page,
  request,
}) => {
  const host = await createAccount(request);
  const meeting = await createMeeting(request, host);
  const screens = [
    ...ENTRY,
    [`/guest?vc_link=${encodeURIComponent(`/meet/${meeting._id}`)}`, texts('en', 'guest')('name')],
  ];
  for (const [path, field] of screens) {
    await page.goto(path);
    await expect(page.getByRole('textbox', { name: field, exact: true }), path).toBeFocused();
    await screenSettled(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(overflow, `${path} scrolls by ${overflow} px`).toBeLessThanOrEqual(0);
  }
});

test('an error on the login screen moves nothing above it, and the illustration stays', async ({ page }) => {
  const ui = new AccountScreens(page);
  await page.goto('/user/login');
  await screenSettled(page);
  const tops = () =>
    page.evaluate(() =>
      ['.user-layout', '.user-layout__art', 'h1', 'input'].map(
        (s) => document.querySelector(s)!.getBoundingClientRect().top,
      ),
    );
  const before = await tops();
  await ui.logIn('nobody@acme-unknown.test', 'wrong-password-1');
  await expect(page.getByRole('alert')).toHaveCount(1);
  expect(await tops()).toEqual(before);
});
