import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { test, expect, mailbox, uniqueEmail, createAccount, signInWithStorage } from '../fixtures/test';
import { admin } from '../fixtures/admin';
import { AccountScreens } from '../pages/account';
import { accessible } from '../pages/a11y';

const box = async (target: Locator) => {
  const b = await target.boundingBox();
  expect(b).not.toBeNull();
  return { x: Math.round(b!.x), y: Math.round(b!.y), width: Math.round(b!.width), height: Math.round(b!.height) };
};

/** Same place and size, give or take the 1 px of rounding a fractional layout position brings. */
function expectSameBox(actual: Awaited<ReturnType<typeof box>>, expected: Awaited<ReturnType<typeof box>>): void {
  for (const key of ['x', 'y', 'width', 'height'] as const) {
    expect(Math.abs(actual[key] - expected[key]), `${key}: ${actual[key]} vs ${expected[key]}`).toBeLessThanOrEqual(1);
  }
}

/**
 * Every address shown is whole where it counts: its local part and its domain each on one line (a break,
 * if any, only before the "@"), neither cut by an ellipsis, within the viewport, and read as one text.
 */
async function expectUnbrokenAddresses(page: Page): Promise<void> {
  const parts = await page.getByTestId('address').evaluateAll((addresses) =>
    addresses.flatMap((a) =>
      Array.from(a.querySelectorAll<HTMLElement>('.address__part')).map((part) => {
        const box = part.getBoundingClientRect();
        const lineHeight = parseFloat(getComputedStyle(part).lineHeight);
        return {
          text: part.textContent,
          whole: a.textContent,
          oneLine: box.height < lineHeight * 1.5,
          uncut: part.scrollWidth <= part.clientWidth,
          inside: box.right <= window.innerWidth,
        };
      }),
    ),
  );
  expect(parts.length).toBeGreaterThan(0);
  for (const part of parts) {
    expect(part, `"${part.text}" of "${part.whole}" breaks, is cut or overflows`).toMatchObject({
      oneLine: true,
      uncut: true,
      inside: true,
    });
    expect(part.whole).toContain(part.text);
  }
}

test.describe('sign-up card', () => {
  test('the card keeps its place and size from step to step, and grows only downward as teammate fields appear', async ({
    page,
  }) => {
    const ui = new AccountScreens(page);
    const card = page.locator('.user-layout');
    // Every frame, not once a step has settled: the card's box (in page coordinates) is recorded on each
    // animation frame, through the cross-fade where both forms share the card, so a jump that lasts one
    // frame fails too.
    const recordCard = () =>
      page.evaluate(() => {
        const frames: number[][] = [];
        (window as unknown as { cardFrames: number[][] }).cardFrames = frames;
        const tick = () => {
          const card = document.querySelector('.user-layout');
          if (card) {
            const r = card.getBoundingClientRect();
            frames.push([r.x + window.scrollX, r.y + window.scrollY, r.width, r.height].map(Math.round));
          }
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
    const framesSince = () =>
      page.evaluate(() => (window as unknown as { cardFrames: number[][] }).cardFrames.splice(0));
    const expectSteadyFrames = async (step: string) => {
      const frames = await framesSince();
      expect(frames.length, `${step}: frames recorded`).toBeGreaterThan(0);
      for (const [x, y, width, height] of frames)
        expectSameBox({ x: x!, y: y!, width: width!, height: height! }, first);
    };
    const email = uniqueEmail('steady');
    await page.goto('/user/signup');
    await expect(ui.heading(ui.signupT('title'))).toBeVisible();
    const first = await box(card);
    // The left panel speaks of the step shown: its sentence follows the form the app switches to.
    const panel = page.locator('.user-layout__say').filter({ visible: true });
    const expectPanel = (step: string) => expect(panel).toHaveText(ui.commonT(`userLayout.step.${step}`));
    await expectPanel('signup');
    await recordCard();
    await ui.signUp(email);
    await ui.expectCodeScreen(email);
    expectSameBox(await box(card), first);
    await expectPanel('check-token');
    await expectSteadyFrames('code');
    await ui.typeCode(await mailbox.code(email));
    await expect(ui.heading(ui.welcomeT('title'))).toBeVisible();
    expectSameBox(await box(card), first);
    await expectPanel('welcome');
    await expectSteadyFrames('welcome');
    await ui.register('Ada', 'Lovelace', 'Secret-123456');
    await expect(ui.heading(ui.teamT('title'))).toBeVisible();
    expectSameBox(await box(card), first);
    // Through the teammates step's fade-in, to its end.
    await expect(card.locator('.fade--out')).toHaveCount(0);
    await expectPanel('add-teammates');
    await expectSteadyFrames('teammates');
    await ui.teammate(1).fill('grace');
    await expect(ui.teammate(2)).toBeVisible();
    await ui.teammate(2).fill('alan');
    await expect(ui.teammate(3)).toBeVisible();
    // New fields only make the card longer downward: its corner and its width stay put (its content may
    // scroll inside it to keep the new field in view on a short window).
    const grown = await box(card);
    expectSameBox({ ...grown, height: first.height }, first);
    expect(grown.height).toBeGreaterThanOrEqual(first.height - 1);
    // The illustration sits in the middle of its panel.
    const aside = await box(page.locator('.user-layout__aside'));
    const art = await box(page.locator('.user-layout__art svg'));
    expect(Math.abs(art.x + art.width / 2 - (aside.x + aside.width / 2))).toBeLessThanOrEqual(2);
    // All five fields: the card is taller than the window, and the step dots stay in view at the top.
    await ui.teammate(3).fill('linus');
    await ui.teammate(4).fill('barbara');
    await expect(ui.teammate(5)).toBeVisible();
    const steps = page.locator('.user-layout__aside').getByRole('list');
    await expect(steps).toBeInViewport({ ratio: 1 });
    await page.mouse.wheel(0, 400);
    await expect(steps).toBeInViewport({ ratio: 1 });
  });
});

test.describe('code screen', () => {
  test('a wrong code: one alert with the tries left, cleared on typing; Send again pauses visibly', async ({
    page,
  }) => {
    const ui = new AccountScreens(page);
    // A long address on a phone: it must not break inside its domain.
    const email = `firstname.lastname-${randomBytes(3).toString('hex')}@acme-corporation-${randomBytes(3).toString('hex')}.test`;
    await page.setViewportSize({ width: 360, height: 740 });
    // The page's clock, so that the minute "Send again" waits can be skipped instead of waited out.
    await page.clock.install();
    await page.goto('/user/signup');
    await ui.signUp(email);
    await ui.expectCodeScreen(email);
    await expectUnbrokenAddresses(page);
    // A code was just mailed: "Send again" waits its minute from the start, and says so.
    const sendAgain = page.getByRole('button', { name: ui.codeT('resend'), exact: true });
    // "You can ask for another code in 60 seconds." (or a second or two fewer by the time it is read).
    const [before, after] = ui.codeT('resendIn_other', { count: 999 }).split('999');
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const minuteLeft = new RegExp(`^${escape(before!)}(60|5\\d)${escape(after!)}$`);
    await expect(sendAgain).toBeDisabled();
    await expect(page.getByTestId('resend-cooldown')).toHaveText(minuteLeft);
    const code = await mailbox.code(email);
    // Every digit off by one: certainly not the code.
    const wrong = [...code].map((d) => String((Number(d) + 1) % 10)).join('');

    const heading = await box(page.getByRole('heading', { level: 1 }));
    await ui.typeCode(wrong);
    const error = page.getByRole('alert').filter({ hasText: ui.errorsT('INVALID_TOKEN') });
    await expect(error).toBeVisible();
    // One message for one problem: the spec's text and the tries left, in one alert.
    await expect(page.getByRole('alert')).toHaveCount(1);
    await expect(error.getByTestId('tries-left')).toHaveText(ui.codeT('triesLeft_other', { count: 2 }));
    // Nothing above the message moved.
    expectSameBox(await box(page.getByRole('heading', { level: 1 })), heading);
    await expect(ui.digit(1)).toHaveAttribute('aria-invalid', 'true');
    await accessible(page, 'code error');
    await page.keyboard.type(wrong[0]!);
    await expect(error).toHaveCount(0);
    await expect(ui.digit(1)).not.toHaveAttribute('aria-invalid', 'true');
    await page.keyboard.type(wrong.slice(1), { delay: 30 });
    await expect(page.getByTestId('tries-left')).toHaveText(ui.codeT('triesLeft_one', { count: 1 }));

    // The minute over, "Send again" works (the suite's RATE_LIMIT_SCALE lifts the server's spacing of
    // code mails, which this page's clock cannot move) and then waits a new minute.
    await page.clock.fastForward(60_000);
    await expect(page.getByTestId('resend-cooldown')).toHaveCount(0);
    await expect(sendAgain).toBeEnabled();
    await sendAgain.click();
    await expect(page.locator('.alert--success')).toContainText(ui.codeT('sent', { email }));
    await expect(page.getByTestId('resend-cooldown')).toHaveText(minuteLeft);
    await expect(sendAgain).toBeDisabled();
    await expect(page.getByTestId('tries-left')).toHaveCount(0);
    await expectUnbrokenAddresses(page);
  });
});

test.describe('login: not confirmed', () => {
  test('one clear sentence, a button that says what it does, answers that are verbs', async ({ page, request }) => {
    const ui = new AccountScreens(page);
    const email = uniqueEmail('pending');
    expect((await request.post('/api/v2/user', { data: { email } })).status()).toBe(201);
    // The error texts load just after the first paint; a person typing has them long before the answer.
    const errorTexts = page.waitForResponse((r) => /\/errors-[^/]*\.json$/.test(new URL(r.url()).pathname), {
      timeout: 10_000,
    });
    await page.goto('/user/login');
    await errorTexts;
    await ui.logIn(email, 'whatever-1');
    // The one way out sits inside the message, after its sentence.
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText('Your email address is not confirmed yet. Send a new confirmation code');
    await alert.getByRole('button', { name: 'Send a new confirmation code' }).click();
    const dialog = page.getByRole('dialog', { name: ui.loginT('resendTitle') });
    await expect(dialog.getByRole('button', { name: 'Send the code' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Not now' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^(Yes|No)$/ })).toHaveCount(0);
    await expectUnbrokenAddresses(page);
  });
});

test.describe('invite accepted but no password yet', () => {
  test('opening the invitation again continues to the code and the welcome step', async ({ page, browser }) => {
    const ui = new AccountScreens(page);
    const email = `someone.${randomBytes(4).toString('hex')}@gmail.com`;
    admin('invite', email, '--language', 'en');
    const link = await mailbox.link(email, /\/confirm-invite\?inviteToken=/);
    await page.goto(link);
    await expect(ui.heading(ui.inviteT('successTitle'))).toBeVisible({ timeout: 15_000 });
    // The invitee leaves before choosing a name and password, and comes back later in a fresh browser.
    const later = await (await browser.newContext()).newPage();
    const again = new AccountScreens(later);
    await later.goto(link);
    await again.expectCodeScreen(email);
    // Mail 1 was the invitation, mail 2 the new code.
    await again.typeCode(await mailbox.code(email, { count: 2 }));
    await expect(again.heading(again.welcomeT('title'))).toBeVisible();
    await later.context().close();
  });
});

test.describe('teammates', () => {
  test('the name field refuses "@", splits a pasted colleague address, and the count of invitations is said', async ({
    page,
    request,
  }) => {
    const ui = new AccountScreens(page);
    const account = await createAccount(request);
    const domain = account.email.split('@')[1]!;
    await signInWithStorage(page, account, '/user/add-teammates');
    const field = ui.teammate(1);
    await field.pressSequentially('grace@');
    await expect(field).toHaveValue('grace');
    await expect(page.getByText(ui.teamT('atRefused', { domain: `@${domain}` }))).toBeVisible();
    // A whole address of the same domain pasted in: the name stays, the domain is the suffix.
    await field.fill(`ada.l@${domain}`);
    await expect(field).toHaveValue('ada.l');
    await expect(page.getByText(ui.teamT('atRefused', { domain: `@${domain}` }))).toHaveCount(0);
    await ui.teammate(2).fill('alan');
    // The typed name never runs under the fixed suffix.
    const input = await box(ui.teammate(2));
    const suffix = await box(page.locator('.field__suffix').nth(1));
    expect(input.x + input.width).toBeLessThanOrEqual(suffix.x + 1);
    await page.getByRole('button', { name: ui.teamT('submit') }).click();
    // Straight on to the app: the count is said there, in a toast, with no second button on the way.
    await expect(page).toHaveURL(/\/app$/);
    await expect(page.locator('[aria-live=polite]').getByText(ui.teamT('sent_other', { count: 2 }))).toBeVisible();
    await accessible(page, 'invitations sent');
  });
});

test.describe('guest form', () => {
  test('says what is missing per field and focuses the first', async ({ page }) => {
    const config = (await (await page.request.get('/api/config')).json()) as { meetDomain: string };
    await page.goto(`/guest?vc_link=${encodeURIComponent(`${config.meetDomain}/room.html?room=x`)}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    // The form says it once; each empty field says what it misses.
    await expect(page.getByText('Please fill in all fields.')).toHaveCount(1);
    await expect(page.getByText('Enter your name.')).toBeVisible();
    await expect(page.getByText('Accept the terms of use to continue.')).toBeVisible();
    // Nothing was made: no guest is remembered; the terms' privacy policy is a link to read.
    expect(await page.evaluate(() => localStorage.getItem('guestId'))).toBeNull();
    await expect(page.getByRole('link', { name: /privacy policy/i })).toHaveAttribute('href', /privacy/);
    await expect(page.getByRole('textbox', { name: 'Your name' })).toBeFocused();
    await page.getByRole('textbox', { name: 'Your name' }).fill('Grace');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('checkbox')).toBeFocused();
    await accessible(page, 'guest form errors');
  });

  test('a dead meeting link is said before any question, with a way home', async ({ page }) => {
    await page.goto(`/guest?vc_link=${encodeURIComponent('/meet/zzz-zzzz-zzz')}`);
    await expect(page.getByRole('heading', { name: 'Video conference not found' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Your name' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/user\/login$/);
  });
});

test.describe('password changed', () => {
  test('recovery: the new password is confirmed in words, then the app opens', async ({ page, request }) => {
    const ui = new AccountScreens(page);
    const account = await createAccount(request);
    await page.goto('/user/recovery-password');
    await ui.field(ui.recoveryT('email')).fill(account.email);
    await page.getByRole('button', { name: ui.recoveryT('submit'), exact: true }).click();
    await expect(ui.heading(ui.codeT('titleRecovery'))).toBeVisible();
    await ui.typeCode(await mailbox.code(account.email, { count: 2 }));
    await ui.field(ui.updateT('password')).fill('Brand-New-Pass-7');
    await ui.field(ui.updateT('confirmation')).fill('Brand-New-Pass-7');
    await page.getByRole('button', { name: ui.updateT('submit') }).click();
    await expect(page.getByText(ui.updateT('changed'))).toBeVisible();
    await expect(page).toHaveURL(/\/app$/);
  });
});
