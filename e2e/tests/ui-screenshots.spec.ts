import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, createAccount, mailbox, overflowOf, uniqueEmail, TAKING_SCREENSHOTS } from '../fixtures/test';
import { WORK_DIR } from '../env';
import { screenSettled } from '../pages/a11y';
import { AccountScreens } from '../pages/account';
import { BROWSER_LOCALE, texts, type Lang } from '../pages/locale-texts';
import { MeetingRoomPage, createMeeting, signIn } from '../pages/meeting-room';

/**
 * Every screen at 1280×800 and 360×740, in English and Hindi: nothing wider than the viewport. In the
 * screenshot pass (`npm run screenshots`, TAKING_SCREENSHOTS) each is also shot, light and dark, into
 * E2E_WORK_DIR/screenshots/<lang>/ for a person to look at (CI keeps them as artefacts; never committed);
 * `npm test` keeps the checks and skips the captures, which cost most of this file's time.
 */
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const SIZES = [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
];

async function settle(page: Page): Promise<void> {
  await screenSettled(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

function shooter(page: Page, lang: Lang) {
  const dir = join(WORK_DIR, 'screenshots', lang);
  if (TAKING_SCREENSHOTS) mkdirSync(dir, { recursive: true });
  return async (name: string) => {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await settle(page);
      expect(await overflowOf(page), `${name} at ${size.width} px scrolls sideways`).toBeLessThanOrEqual(0);
      if (!TAKING_SCREENSHOTS) continue;
      await page.screenshot({ path: join(dir, `${name}-${size.width}.png`), fullPage: true });
      // The same state in the dark theme (prefers-color-scheme: dark).
      await page.emulateMedia({ colorScheme: 'dark' });
      await settle(page);
      await page.screenshot({ path: join(dir, `${name}-dark-${size.width}.png`), fullPage: true });
      await page.emulateMedia({ colorScheme: 'light' });
    }
    await page.setViewportSize(SIZES[0]!);
  };
}

for (const lang of ['en', 'hi'] as Lang[]) {
  test.describe(`screenshots (${lang})`, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });

    test('account screens', async ({ page }) => {
      test.setTimeout(240_000);
      const shot = shooter(page, lang);
      const ui = new AccountScreens(page, lang);
      for (const [path, name] of [
        ['/user/login', 'login'],
        ['/user/recovery-password', 'recovery'],
        ['/supported-browser', 'supported-browser'],
        ['/login-error-sso', 'sso-error'],
        ['/auth', 'auth-error'],
        ['/clear', 'clear'],
        ['/no-such-page', 'not-found'],
        ['/file/000000000000000000000000/download_link?share_key=nope', 'file-invalid'],
        ['/help/third-party-cookies', 'cookies-help'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        await shot(name);
      }

      const email = uniqueEmail('shot');
      await page.goto('/user/signup');
      await shot('signup');
      await ui.signUp(email);
      await ui.expectCodeScreen(email);
      await shot('code');
      await ui.typeCode('000000');
      await expect(page.getByRole('alert').first()).toBeVisible();
      await shot('code-error');
      await ui.typeCode(await mailbox.code(email));
      await expect(ui.heading(ui.welcomeT('title'))).toBeVisible();
      await shot('welcome');
      await ui.register('Ada', 'Lovelace', 'Secret-123456');
      await expect(ui.heading(ui.teamT('title'))).toBeVisible();
      await ui.teammate(1).fill('grace');
      await expect(ui.teammate(2)).toBeVisible();
      await shot('teammates');
      // Get started with addresses goes straight on: the home says how many invitations went out, in a toast.
      await page.getByRole('button', { name: texts(lang, 'teammates')('submit') }).click();
      await expect(page).toHaveURL(/\/app$/);
      await expect(page.locator('.toast')).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toBeAttached();
      await shot('home');

      // The sessions panel with a second device (an iPhone signed in through the API), one signed out, and
      // the "all devices" question.
      const sessionsT = texts(lang, 'sessions');
      const phone = { 'user-agent': IPHONE_UA };
      const login = await page.request.post('/api/auth/login', {
        data: { login: email, password: 'Secret-123456' },
        headers: phone,
      });
      expect(login.status(), await login.text()).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const seen = await page.request.get('/api/v2/user/sessions', {
        headers: { ...phone, authorization: `Bearer ${token}` },
      });
      expect(seen.status()).toBe(200);
      await page.goto('/app/sessions');
      const sessions = page.getByRole('region', { name: sessionsT('title') });
      const iphone = sessions.getByRole('listitem').filter({ hasText: 'Safari' });
      await expect(iphone).toHaveCount(1);
      await shot('home-sessions');
      await sessions.getByRole('button', { name: sessionsT('all') }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await shot('home-sessions-all-dialog');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
      await iphone.getByRole('button').click();
      await expect(sessions.getByRole('status')).not.toBeEmpty();
      await expect(iphone).toHaveCount(0);
      // This device alone: "Sign out of all devices" is not offered.
      await expect(sessions.getByRole('button', { name: sessionsT('all') })).toHaveCount(0);
      await shot('home-sessions-signed-out');
    });

    test('meeting screens', async ({ page, browser, request }) => {
      test.setTimeout(240_000);
      const shot = shooter(page, lang);
      const host = await createAccount(request);
      const meeting = await createMeeting(request, host, 'Weekly sync');
      await page.goto('/meet/zzz-zzzz-zzz');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await shot('meeting-not-found');

      // The guest's page runs on Playwright's clock: its asks while waiting for the host (every 5 s) are
      // moved on rather than waited for.
      await page.clock.install();
      await page.goto(`/meet/${meeting._id}`);
      // A new guest: the name and the terms on the pre-join itself.
      await expect(page.getByTestId('setup-meeting-name')).toBeVisible();
      await expect(page.getByRole('meter')).toBeVisible();
      await expect(page.getByTestId('meeting-state')).toBeVisible();
      await shot('prejoin-guest');
      await page.getByRole('button', { name: texts(lang, 'meeting')('setup.join') }).click();
      await expect(page.getByText(texts(lang, 'guest')('termsRequired'))).toBeVisible();
      await expect(page.getByText(texts(lang, 'guest')('REQUIRED_FIELD'))).toHaveCount(1);
      await shot('prejoin-guest-errors');
      await page.getByRole('textbox', { name: texts(lang, 'meeting')('setup.yourName') }).fill('Grace Guest');
      await page.locator('input[name=terms]').check();
      await shot('prejoin');
      await page.getByRole('button', { name: texts(lang, 'meeting')('toggle.micOff') }).click();
      await page.getByRole('button', { name: texts(lang, 'meeting')('toggle.cameraOff') }).click();
      await shot('prejoin-off');
      await page.getByRole('button', { name: texts(lang, 'meeting')('setup.join') }).click();
      await expect(page.getByTestId('meeting-waiting')).toBeVisible();
      await shot('waiting');

      const hostPage = await (await browser.newContext({ locale: BROWSER_LOCALE[lang] })).newPage();
      await signIn(hostPage, host, `/meet/${meeting._id}`, () => hostPage.clock.install());
      await hostPage.getByRole('button', { name: texts(lang, 'meeting')('setup.join') }).click();
      const room = new MeetingRoomPage(hostPage);
      await room.enterWithoutWaiting();
      await room.constructed();
      const m = texts(lang, 'meeting');
      const hostShot = shooter(hostPage, lang);
      await hostShot('room');
      // The waiting guest goes in with the host; a newcomer's pre-join says who is there (presence).
      await new MeetingRoomPage(page).enterWithoutWaiting();
      const newcomer = await (await browser.newContext({ locale: BROWSER_LOCALE[lang] })).newPage();
      // The pre-join looks again every 15 s: if its first look came before the guest's presence beat, its
      // clock is moved on to the next look rather than the 15 s waited out.
      await newcomer.clock.install();
      await newcomer.goto(`/meet/${meeting._id}`);
      const here = m('setup.here.two', { first: 'Ada', second: 'Grace' });
      await expect(async () => {
        await newcomer.clock.fastForward(15_000);
        await expect(newcomer.getByTestId('meeting-state')).toHaveText(here, { timeout: 2_000 });
      }).toPass({ timeout: 25_000 });
      await shooter(newcomer, lang)('prejoin-someone-here');
      await newcomer.context().close();
      // The host's leave menu (End for everyone), and below 480 px the "⋯" menu (the 1280 shot shows the bar).
      await hostPage.getByRole('button', { name: m('room.leaveOptions') }).click();
      await expect(hostPage.getByRole('menu')).toBeVisible();
      await hostShot('room-leave-menu');
      await hostPage.keyboard.press('Escape');
      await hostPage.setViewportSize({ width: 360, height: 740 });
      await hostPage.getByRole('button', { name: m('room.more') }).click();
      await expect(hostPage.getByRole('menu')).toBeVisible();
      await hostShot('room-more-menu');
      // Leave is one click.
      await hostPage.getByRole('button', { name: m('room.leave'), exact: true }).click();
      await expect(hostPage.getByTestId('meeting-left')).toBeVisible();
      await hostShot('left');
      await hostPage.context().close();
    });

    test('room: an untitled meeting and the keep-alive prompt', async ({ page, request }) => {
      test.setTimeout(120_000);
      const shot = shooter(page, lang);
      const m = texts(lang, 'meeting');
      const host = await createAccount(request);
      const meeting = await createMeeting(request, host);
      await signIn(page, host, `/meet/${meeting._id}`, () => page.clock.install());
      await page.getByRole('button', { name: m('setup.join') }).click();
      await expect(page.getByTestId('jitsi-container').locator('iframe')).toBeVisible();
      await expect(page.getByTestId('meeting-title')).toHaveText(m('panel.untitledOf', { name: 'Ada' }));
      await shot('room-untitled');
      await page.clock.fastForward('15:00');
      await expect(page.getByRole('alertdialog')).toBeVisible();
      // Stopped at 28 s left while the shots are taken.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 2000);
      await expect(page.getByTestId('keep-alive-countdown')).toHaveText(m('keepAlive.closesIn', { seconds: 28 }));
      await shot('keep-alive');
    });

    test('pre-join without devices and with the permission blocked', async ({ browser, request }) => {
      test.setTimeout(120_000);
      const host = await createAccount(request);
      const meeting = await createMeeting(request, host, 'Weekly sync');
      for (const [name, error] of [
        ['prejoin-no-devices', 'NotFoundError'],
        ['prejoin-blocked', 'NotAllowedError'],
      ] as const) {
        const context = await browser.newContext({ locale: BROWSER_LOCALE[lang] });
        const page = await context.newPage();
        await page.addInitScript((failure) => {
          navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('refused', failure));
          navigator.mediaDevices.enumerateDevices = () => Promise.resolve([]);
        }, error);
        await signIn(page, host, `/meet/${meeting._id}`);
        await expect(page.getByTestId('meeting-state')).toBeVisible();
        await shooter(page, lang)(name);
        await context.close();
      }
    });
  });
}
