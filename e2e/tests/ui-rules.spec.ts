import { randomBytes } from 'node:crypto';
import { admin } from '../fixtures/admin';
import { test, expect, createAccount } from '../fixtures/test';
import { accessible, screenSettled } from '../pages/a11y';
import { AccountScreens } from '../pages/account';
import { createMeeting } from '../pages/meeting-room';
import { texts } from '../pages/locale-texts';

/**
 * Rules every entry screen keeps, each checked where a regression would break it: the caret
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
  // The error line fits in the card's room: the page still does not scroll at 1280×800.
  const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  expect(overflow, `the login with its error scrolls by ${overflow} px`).toBeLessThanOrEqual(0);
});

test.describe('dark scheme', () => {
  test.use({ colorScheme: 'dark' });
  test('prefers-color-scheme: dark gives the screens dark surfaces and light text, and axe stays clean', async ({
    page,
  }) => {
    for (const path of ['/user/login', '/no-such-page']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const colours = await page.evaluate(() => {
        // Relative luminance of an rgb() colour (WCAG).
        const luminance = (css: string) => {
          const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
          const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
          return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
        };
        const h1 = document.querySelector('h1')!;
        let surface: Element | null = h1;
        while (surface && getComputedStyle(surface).backgroundColor === 'rgba(0, 0, 0, 0)')
          surface = surface.parentElement;
        return {
          surface: luminance(getComputedStyle(surface!).backgroundColor),
          text: luminance(getComputedStyle(h1).color),
        };
      });
      expect(colours.surface, `${path}: card background`).toBeLessThan(0.05);
      expect(colours.text, `${path}: heading colour`).toBeGreaterThan(0.6);
      await accessible(page, `${path} (dark)`);
    }
  });
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`focus ring (${colorScheme})`, () => {
    test.use({ colorScheme });
    test('a pill button reached by Tab shows a solid ring of at least 3:1 against the card, with its own corners', async ({
      page,
    }) => {
      await page.goto('/user/login');
      const submit = page.getByRole('button', { name: texts('en', 'login')('submit'), exact: true });
      await expect(submit).toBeVisible();
      // The caret starts in the e-mail field; Tab on until the pill button has the focus.
      await expect(page.getByRole('textbox').first()).toBeFocused();
      for (let i = 0; i < 8 && !(await submit.evaluate((el) => el === document.activeElement)); i++) {
        await page.keyboard.press('Tab');
      }
      await expect(submit).toBeFocused();
      const ring = await submit.evaluate((el) => {
        const channels = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
        const luminance = ([r, g, b]: number[]) => {
          const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
          return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
        };
        const style = getComputedStyle(el);
        let card: Element | null = el.parentElement;
        while (card && getComputedStyle(card).backgroundColor === 'rgba(0, 0, 0, 0)') card = card.parentElement;
        const back = channels(getComputedStyle(card!).backgroundColor);
        // The outer ring is the last shadow ("rgba(…) 0px 0px 0px 4px"), seen over the card when translucent.
        const outer = style.boxShadow.split(/,(?![^(]*\))/).pop()!;
        const [r, g, b, alpha = 1] = channels(outer.match(/rgba?\([^)]*\)/)![0]);
        const seen = [r!, g!, b!].map((c, i) => c * alpha + back[i]! * (1 - alpha));
        const [a, z] = [luminance(seen), luminance(back)];
        return {
          contrast: (Math.max(a, z) + 0.05) / (Math.min(a, z) + 0.05),
          radius: parseFloat(style.borderTopLeftRadius),
        };
      });
      expect(ring.contrast).toBeGreaterThanOrEqual(3);
      // The ring follows the pill (not a small rectangle).
      expect(ring.radius).toBeGreaterThan(15);
    });

    test('the outline of a text field stands at 3:1 at least against the card, and its focus is stronger still', async ({
      page,
    }) => {
      await page.goto('/user/login');
      const email = page.getByRole('textbox', { name: texts('en', 'login')('email'), exact: true });
      await expect(email).toBeFocused();
      const outline = () =>
        email.evaluate((input) => {
          const channels = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
          const luminance = ([r, g, b]: number[]) => {
            const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
            return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
          };
          const control = input.closest('.field__control')!;
          let card: Element | null = control.parentElement;
          while (card && getComputedStyle(card).backgroundColor === 'rgba(0, 0, 0, 0)') card = card.parentElement;
          const style = getComputedStyle(control);
          const [a, z] = [
            luminance(channels(style.borderTopColor)),
            luminance(channels(getComputedStyle(card!).backgroundColor)),
          ];
          return {
            contrast: (Math.max(a, z) + 0.05) / (Math.min(a, z) + 0.05),
            width: parseFloat(style.borderTopWidth),
            ring: style.boxShadow !== 'none',
          };
        });
      // The outline eases into its colour (a 0.15 s transition): measured mid-way, it is neither state.
      await screenSettled(page);
      const focused = await outline();
      await page.locator('h1').click();
      await expect(email).not.toBeFocused();
      await screenSettled(page);
      const rest = await outline();
      expect(rest.contrast, 'outline at rest').toBeGreaterThanOrEqual(3);
      expect(rest.width).toBeGreaterThanOrEqual(1);
      expect(rest.ring).toBe(false);
      expect(focused.contrast, 'outline with the focus').toBeGreaterThan(rest.contrast);
      expect(focused.ring).toBe(true);
    });
  });
}

test('error pages lead on with one primary button and say what happened in words', async ({ page }) => {
  const pages = texts('en', 'pages');
  for (const [path, title] of [
    ['/clear', pages('clear.title')],
    ['/login-error-sso', texts('en', 'ssoError')('title')],
    ['/auth?token=not-a-token', pages('auth.errorTitle')],
    ['/no-such-page', texts('en', 'pages')('notFound.title')],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title }), path).toBeVisible();
    await expect(page.locator('main a.btn--primary'), path).toHaveCount(1);
    await expect(page.locator('main'), path).not.toContainText(/local storage|authentication error|error 40/i);
  }
});

test('the left panel follows the login form into its second step', async ({ page, request }) => {
  // A domain that requires two-step verification at once: the password alone leads to the set-up step.
  const domain = `acme-${randomBytes(4).toString('hex')}.com`;
  const boss = await createAccount(request, `boss@${domain}`);
  const person = await createAccount(request, `ana@${domain}`);
  admin('domain', 'admin', 'add', domain, boss.email);
  const policy = await request.put(`/api/admin/domains/${domain}/security-policy`, {
    headers: { authorization: `Bearer ${boss.token}` },
    data: { require_two_step: true, two_step_grace_days: 0 },
  });
  expect(policy.status(), await policy.text()).toBe(200);
  const common = texts('en', 'common');
  const panel = page.locator('.user-layout__say').filter({ visible: true });
  await page.goto('/user/login');
  await expect(panel).toHaveText(common('userLayout.step.login'));
  await new AccountScreens(page).logIn(person.email, person.password);
  await expect(page.getByRole('heading', { level: 1, name: texts('en', 'loginStep')('enrol.title') })).toBeVisible();
  await expect(panel).toHaveText(common('userLayout.step.two-step'));
});
