import { decodeJwt } from 'jose';
import type { Locator, Page } from '@playwright/test';
import { test, expect, createAccount } from '../fixtures/test';
import { accessible } from '../pages/a11y';
import {
  MeetingRoomPage,
  createMeeting,
  fillGuestForm,
  hostOpens,
  meetingAndNewBrowser,
  signIn,
} from '../pages/meeting-room';
import { boxOf } from '../pages/box';

/** The element lies wholly inside the viewport as it is now (no scrolling needed to see it). */
async function expectInViewport(page: Page, target: Locator): Promise<void> {
  const box = await target.boundingBox();
  const size = page.viewportSize()!;
  expect(box, 'element has a box').not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(size.height);
  expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
}

const meter = (page: Page) => page.getByRole('meter', { name: 'Microphone level' });
const level = async (page: Page) => Number(await meter(page).getAttribute('aria-valuenow'));

test.describe('pre-join screen', () => {
  test('a guest sees the meeting and their name, the mic meter moves, toggles say their state, Join is on screen at both sizes', async ({
    browser,
    request,
  }) => {
    // Two contexts, fake media, axe and screenshots at two sizes: more than the default minute on a busy machine.
    test.slow();
    const { host, meeting, page } = await meetingAndNewBrowser(browser, request, {
      viewport: { width: 1280, height: 800 },
    });
    const context = page.context();
    await page.goto(`/meet/${meeting._id}`);
    await fillGuestForm(page, 'Grace Guest');
    await expect(page.getByRole('heading', { name: 'Ready to join?' })).toBeVisible();
    await expect(page.getByTestId('setup-meeting-name')).toHaveText('Weekly sync');
    await expect(page).toHaveTitle('Ready to join? · Weekly sync · Suite');
    const name = page.getByRole('textbox', { name: 'Your name' });
    await expect(name).toHaveValue('Grace Guest');
    const join = page.getByRole('button', { name: 'Join meeting' });
    await expectInViewport(page, join);
    // Google Meet's order: the devices are small menus under the preview; Join sits beside them.
    const preview = await boxOf(page.getByTestId('self-view'));
    const microphone = page.getByRole('combobox', { name: 'Microphone' });
    const mic0 = await boxOf(microphone);
    expect(mic0.y).toBeGreaterThanOrEqual(preview.y + preview.height);
    expect(mic0.x + mic0.width).toBeLessThanOrEqual(preview.x + preview.width);
    expect((await boxOf(join)).x).toBeGreaterThanOrEqual(preview.x + preview.width);

    // Chromium's fake microphone beeps: the meter rises above zero within a few seconds.
    await expect.poll(() => level(page), { timeout: 10_000 }).toBeGreaterThan(5);
    const mic = page.getByRole('button', { name: 'Mute microphone' });
    const camera = page.getByRole('button', { name: 'Turn off camera' });
    await expect(mic).toHaveAttribute('aria-pressed', 'false');
    await expect(camera).toHaveAttribute('aria-pressed', 'false');
    await accessible(page, 'pre-join');

    await mic.click();
    await expect(mic).toHaveAttribute('aria-pressed', 'true');
    // Muted reads as muted: red, not a disabled grey.
    expect(await mic.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 75, 54)');
    await expect.poll(() => level(page)).toBe(0);
    await camera.click();
    await expect(camera).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('Your camera is off')).toBeVisible();
    await accessible(page, 'pre-join, both off');
    await mic.click();
    await expect(mic).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(() => level(page), { timeout: 10_000 }).toBeGreaterThan(5);

    await page.setViewportSize({ width: 360, height: 740 });
    await expectInViewport(page, join);
    // On a phone Join follows the fields and covers none of them; the device menus come after it.
    const joinBox = await boxOf(join);
    for (const field of [name, page.getByLabel(/I have read and accept/)]) {
      const box = await boxOf(field);
      expect(box.y + box.height).toBeLessThanOrEqual(joinBox.y);
    }
    expect((await boxOf(microphone)).y).toBeGreaterThan(joinBox.y + joinBox.height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await accessible(page, 'pre-join at 360 px');

    await name.fill('Grace Hopper');
    const before = await boxOf(page.getByTestId('meeting-setup'));
    await join.click();
    // Waiting for the host names the meeting and offers a way out; the self-view, toggles and lists stay.
    const waiting = page.getByTestId('meeting-waiting');
    await expect(waiting.getByRole('heading', { name: 'Waiting for the host' })).toBeVisible();
    // In the same place, and no shorter, though its fields are gone.
    const after = await boxOf(waiting);
    expect(Math.abs(after.y - before.y)).toBeLessThanOrEqual(1);
    expect(after.height).toBeGreaterThanOrEqual(before.height - 1);
    await expect(waiting.getByText('Weekly sync')).toBeVisible();
    await expect(waiting.getByRole('status')).toHaveText(
      "You'll join automatically as soon as the host starts the meeting.",
    );
    await expect(page).toHaveTitle('Waiting for the host · Weekly sync · Suite');
    // (The camera was turned off above: the self-view says so, its toggle still there to turn it on.)
    await expect(waiting.getByTestId('self-view')).toContainText('Your camera is off');
    await expect(page.getByTestId('self-name')).toHaveText('Grace Hopper');
    await expect(waiting.getByRole('button', { name: 'Turn off camera' })).toHaveAttribute('aria-pressed', 'true');
    await expect(waiting.getByRole('button', { name: 'Mute microphone' })).toBeVisible();
    await expect(waiting.getByLabel('Camera', { exact: true })).toBeVisible();
    await accessible(page, 'waiting for host');
    await waiting.getByRole('button', { name: 'Leave the waiting room' }).click();
    await expect(page.getByRole('heading', { name: "You've left the room" })).toBeVisible();

    // The host arrives; the guest rejoins under the name typed on the pre-join screen.
    const hostPage = await (await browser.newContext()).newPage();
    await signIn(hostPage, host, `/meet/${meeting._id}`, () => hostPage.clock.install());
    const hostRoom = new MeetingRoomPage(hostPage);
    await hostRoom.joinFromSetup();
    await hostRoom.enterWithoutWaiting();
    await hostRoom.expectJoined();
    await page.getByRole('button', { name: 'Rejoin' }).click();
    const guest = new MeetingRoomPage(page);
    await guest.expectJoined();
    const claims = decodeJwt((await guest.constructed()).options!.jwt!) as { context: { user: { name: string } } };
    expect(claims.context.user.name).toBe('Grace Hopper');
    await hostPage.context().close();
    await context.close();
  });

  test('a signed-in host sees their name (not editable); the toggles decide how Jitsi starts', async ({
    page,
    request,
  }) => {
    await hostOpens(page, request);
    await expect(page.getByText('Joining as Ada Lovelace')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Your name' })).toHaveCount(0);
    // Untitled: called after its host, never by its id.
    await expect(page.getByTestId('setup-meeting-name')).toHaveText("Ada's meeting");
    await page.getByRole('button', { name: 'Mute microphone' }).click();
    await page.getByRole('button', { name: 'Turn off camera' }).click();
    const room = new MeetingRoomPage(page);
    await page.getByRole('button', { name: 'Join meeting' }).click();
    await room.expectJoined();
    expect((await room.constructed()).options?.configOverwrite).toMatchObject({
      startWithAudioMuted: true,
      startWithVideoMuted: true,
    });
    // The room bar starts in the same state and follows Jitsi's.
    const bar = page.getByRole('navigation', { name: 'Meeting controls' });
    const mic = bar.getByRole('button', { name: 'Mute microphone' });
    await expect(mic).toHaveAttribute('aria-pressed', 'true');
    await room.emit('audioMuteStatusChanged', { muted: false });
    await expect(mic).toHaveAttribute('aria-pressed', 'false');
    await mic.click();
    expect(await room.commands('toggleAudio')).toHaveLength(1);
  });
});

test.describe('dead ends have a way back', () => {
  test('meetings not configured: said before the guest form, with a way home', async ({ browser, request }) => {
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host);
    const page = await (await browser.newContext()).newPage();
    await page.route('**/api/config', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), meetDomain: null } });
    });
    await page.goto(`/meet/${meeting._id}`);
    await expect(page.getByRole('heading', { name: 'Meetings are not available' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/meet/${meeting._id}$`));
    await accessible(page, 'not configured');
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/user\/login$/);
    await page.context().close();
  });

  test('an unknown room goes back home', async ({ page }) => {
    await page.goto('/meet/zzz-zzzz-zzz');
    // A heading, so without the sentence's full stop (the spec's words: "video conference not found").
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Video conference not found');
    await expect(page).toHaveTitle('Video conference not found · zzz-zzzz-zzz · Suite');
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/user\/login$/);
  });

  test('the third-party-cookie help is a styled page whose Reload returns to the meeting', async ({ page }) => {
    await page.addInitScript(() => {
      Storage.prototype.setItem = () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      };
    });
    await page.goto('/meet/abc-defg-hij');
    await page.getByRole('link', { name: 'How to enable third-party cookies' }).click();
    await expect(page.getByRole('heading', { name: 'Enable third-party cookies' })).toBeVisible();
    await expect(page).toHaveTitle('Enable third-party cookies · Suite');
    // Styled like the other pages: the browsers are boxed (the page's own stylesheet loaded).
    const item = page.locator('.meet-help__item').first();
    expect(await item.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('solid');
    await accessible(page, 'cookie help');
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(page).toHaveURL(/\/meet\/abc-defg-hij$/);
    await expect(page.getByRole('heading', { name: 'Third-party cookies must be enabled' })).toBeVisible();
  });
});

test.describe('pre-join', () => {
  test('the self-view fills its side of the card, edge to edge down to its device menus, with the name on it', async ({
    page,
    request,
  }) => {
    await hostOpens(page, request);
    const card = page.getByTestId('meeting-setup');
    const view = page.getByTestId('self-view');
    await expect(page.getByLabel('Camera preview')).toBeVisible();
    await expect(view.getByTestId('self-name')).toHaveText('Ada Lovelace');
    for (const size of [
      { width: 1280, height: 800 },
      { width: 360, height: 740 },
    ]) {
      await page.setViewportSize(size);
      const c = await boxOf(card);
      const v = await boxOf(view);
      const video = await boxOf(page.getByLabel('Camera preview'));
      // No band of the card above, below or left of the picture (at 360: above it and on both sides).
      expect(Math.abs(v.x - c.x), `${size.width}: left edge`).toBeLessThanOrEqual(1);
      expect(Math.abs(v.y - c.y), `${size.width}: top edge`).toBeLessThanOrEqual(1);
      if (size.width > 760) {
        // Under the picture, its device menus (Google Meet's order): the picture's bottom edge meets them.
        const menus = await boxOf(page.getByRole('group', { name: 'Devices' }));
        expect(Math.abs(menus.y - (v.y + v.height))).toBeLessThanOrEqual(1);
        expect(menus.y + menus.height).toBeLessThanOrEqual(c.y + c.height + 1);
      } else expect(Math.abs(v.width - c.width)).toBeLessThanOrEqual(1);
      // The video covers the whole area (object-fit: cover), not a letterbox inside it.
      expect(Math.abs(video.width - v.width) + Math.abs(video.height - v.height)).toBeLessThanOrEqual(2);
    }
  });

  test('the state of the meeting and who is in the room are said next to Join, from what the server knows', async ({
    browser,
    request,
  }) => {
    test.slow();
    const { host, meeting, page } = await meetingAndNewBrowser(browser, request);
    // The pre-join asks the server again every 15 s: the page's clock is moved on instead of waited for.
    await page.clock.install();
    await page.goto(`/meet/${meeting._id}`);
    const inRoom = async () =>
      (
        (await (await request.get(`/api/v2/videoconference/${meeting._id}`)).json()) as {
          participants: { count: number };
        }
      ).participants.count;
    /** Once the server counts `count` people in, the pre-join's next look (15 s on) says `text`. */
    const saysOnItsNextLook = async (count: number, text: string) => {
      await expect.poll(inRoom).toBe(count);
      await page.clock.fastForward(15_000);
      await expect(state).toHaveText(text);
    };
    const state = page.getByTestId('meeting-state');
    await expect(state).toHaveText("The host hasn't started yet: you'll go to the waiting room");
    // "Ready to join?", then who is there (or the meeting's state), then the guest's fields and Join.
    const heading = await boxOf(page.getByRole('heading', { name: 'Ready to join?' }));
    const join = await boxOf(page.getByRole('button', { name: 'Join meeting' }));
    const line = await boxOf(state);
    expect(line.y).toBeGreaterThanOrEqual(heading.y + heading.height - 1);
    expect(line.y - (heading.y + heading.height)).toBeLessThanOrEqual(16);
    expect(join.y).toBeGreaterThan(line.y);

    const hostPage = await (await browser.newContext()).newPage();
    await signIn(hostPage, host, `/meet/${meeting._id}`, () => hostPage.clock.install());
    // The host (signed in) is not told to wait in a lobby, nor for the host: their Join starts it.
    await expect(hostPage.getByTestId('meeting-state')).toHaveText(
      'You are the host: the meeting starts when you join',
    );
    await expect(hostPage.getByText(/when the host joins/)).toHaveCount(0);
    const hostRoom = new MeetingRoomPage(hostPage);
    await hostRoom.joinFromSetup();
    await hostRoom.enterWithoutWaiting();
    await hostRoom.expectJoined();
    // The pre-join asks again on its own (every 15 s): the host's room page reports her in (presence), so
    // the guest learns who is there, by first name.
    await saysOnItsNextLook(1, 'Ada is here');
    await accessible(page, 'pre-join, someone in the room');

    // A guest joins too (proving the room with the meeting token the server gave it), then closes the tab.
    const guestPage = await (await browser.newContext()).newPage();
    await guestPage.clock.install();
    await guestPage.goto(`/meet/${meeting._id}`);
    await fillGuestForm(guestPage, 'Grace Hopper');
    const guestRoom = new MeetingRoomPage(guestPage);
    await guestRoom.joinFromSetup();
    await guestRoom.enterWithoutWaiting();
    await guestRoom.expectJoined();
    await saysOnItsNextLook(2, 'Ada and Grace are here');
    // Closing the tab says goodbye (a keepalive request on pagehide): the server knows well before the
    // entry would expire (at least 23 s: 38 s after a beat at most 15 s old).
    await guestPage.close({ runBeforeUnload: true });
    await saysOnItsNextLook(1, 'Ada is here');

    // The host leaves: nobody is in, the line goes back to the meeting's state.
    await hostRoom.leaveButton().click();
    await expect(hostPage.getByRole('button', { name: 'Rejoin' })).toBeVisible();
    await saysOnItsNextLook(0, "The meeting has started: you'll go straight in");
    await hostPage.context().close();
    await guestPage.context().close();
    await page.context().close();
  });

  test('a guest gives the name and accepts the terms on the pre-join; /guest links land there', async ({
    page,
    request,
  }) => {
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host, 'Board review');
    await page.goto(`/guest?vc_link=${encodeURIComponent(`/meet/${meeting._id}`)}`);
    await expect(page).toHaveURL(new RegExp(`/meet/${meeting._id}$`));
    const name = page.getByRole('textbox', { name: 'Your name' });
    await expect(name).toBeFocused();
    await expect(page.getByTestId('setup-meeting-name')).toHaveText('Board review');
    await expect(page.getByLabel('Camera', { exact: true })).toBeVisible();
    // The privacy policy is part of the consent sentence, not a lone link of its own under it.
    const terms = page.locator('.check', { has: page.locator('input[name=terms]') });
    await expect(terms.getByRole('link', { name: 'privacy policy' })).toBeVisible();
    await expect(page.locator('.meet-setup__form > p > a')).toHaveCount(0);
    // "Skip this review next time" is a choice made before Join; Join is the form's last control.
    const controls = page.locator('.meet-setup__form').locator('input, button');
    await expect(controls.last()).toHaveText('Join meeting');
    await expect(controls.nth(-2)).toHaveAttribute('name', 'skip-review');
    const card = page.locator('.meet-setup');
    const before = await card.boundingBox();
    await page.getByRole('button', { name: 'Join meeting' }).click();
    // Each field says what it misses; the spec's sentence is said once, for the form.
    await expect(page.getByText('Enter your name.')).toBeVisible();
    await expect(page.getByText('Accept the terms of use to continue.')).toBeVisible();
    await expect(page.getByText('Please fill in all fields.')).toHaveCount(1);
    await expect(name).toBeFocused();
    // The messages grow the card downwards: its top does not move (no re-centring jump).
    expect((await card.boundingBox())?.y).toBe(before?.y);
    await accessible(page, 'guest pre-join errors');
    await name.fill('Grace');
    await expect(page.getByText('Enter your name.')).toHaveCount(0);
    await expect(page.getByText('Accept the terms of use to continue.')).toBeVisible();
    await page.getByRole('button', { name: 'Join meeting' }).click();
    await expect(page.locator('input[name=terms]')).toBeFocused();
    expect(await page.evaluate(() => localStorage.getItem('guestId'))).toBeNull();
    await page.locator('input[name=terms]').check();
    await page.getByRole('button', { name: 'Join meeting' }).click();
    await expect(page.getByTestId('meeting-waiting')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('guestId'))).toMatch(/^[0-9a-f]{24}$/);
    await expect(page.getByRole('link', { name: 'Privacy policy' })).toHaveCount(0);
  });

  test('no devices: "Check again" finds them and keeps the typed name', async ({ page, request }) => {
    await page.addInitScript(() => {
      const real = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
      const list = navigator.mediaDevices.enumerateDevices.bind(navigator.mediaDevices);
      const w = window as unknown as { __plugged: boolean };
      w.__plugged = false;
      navigator.mediaDevices.getUserMedia = (c) =>
        w.__plugged ? real(c) : Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
      navigator.mediaDevices.enumerateDevices = () => (w.__plugged ? list() : Promise.resolve([]));
    });
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host);
    await page.goto(`/meet/${meeting._id}`);
    await expect(page.getByText('No microphone or camera was found.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Your name' }).fill('Grace Guest');
    await accessible(page, 'no devices');
    await page.evaluate(() => ((window as unknown as { __plugged: boolean }).__plugged = true));
    await page.getByRole('button', { name: 'Check again' }).click();
    await expect(page.getByRole('button', { name: 'Join meeting' })).toBeVisible();
    await expect(page.getByLabel('Camera', { exact: true })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Your name' })).toHaveValue('Grace Guest');
    await expect(page.getByText('No microphone or camera was found.')).toHaveCount(0);
  });

  test('a blocked microphone and camera: where to click, and a primary "Allow" that asks again', async ({
    page,
    request,
  }) => {
    await page.addInitScript(() => {
      const real = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
      const w = window as unknown as { __allowed: boolean; __asked: number };
      w.__allowed = false;
      w.__asked = 0;
      navigator.mediaDevices.getUserMedia = (c) => {
        w.__asked += 1;
        return w.__allowed ? real(c) : Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
      };
    });
    await hostOpens(page, request);
    await expect(page.getByTestId('permission-help')).toContainText('address bar');
    const allow = page.getByRole('button', { name: 'Allow microphone and camera' });
    await expect(allow).toHaveClass(/btn--primary/);
    await expect(page.getByRole('button', { name: 'Join as spectator' })).toHaveClass(/btn--secondary/);
    await accessible(page, 'permission blocked');
    const asked = () => page.evaluate(() => (window as unknown as { __asked: number }).__asked);
    const before = await asked();
    await page.evaluate(() => ((window as unknown as { __allowed: boolean }).__allowed = true));
    await allow.click();
    await expect.poll(asked).toBeGreaterThan(before);
    await expect(page.getByRole('button', { name: 'Join meeting' })).toBeVisible();
    await expect(page.getByTestId('permission-help')).toHaveCount(0);
  });

  test('a guest let in while in another tab: the tab title changes and a short chime plays', async ({
    browser,
    request,
  }) => {
    test.slow();
    const { host, meeting, page } = await meetingAndNewBrowser(browser, request);
    // The tab's visibility as the test sets it; every tone the page starts is counted.
    await page.addInitScript(() => {
      const w = window as unknown as { __hidden: boolean; __tones: number };
      w.__hidden = false;
      w.__tones = 0;
      Object.defineProperty(document, 'hidden', { get: () => w.__hidden });
      Object.defineProperty(document, 'visibilityState', { get: () => (w.__hidden ? 'hidden' : 'visible') });
      const start = OscillatorNode.prototype.start;
      OscillatorNode.prototype.start = function (...args: Parameters<typeof start>) {
        w.__tones += 1;
        return start.apply(this, args);
      };
    });
    await page.goto(`/meet/${meeting._id}`);
    await fillGuestForm(page, 'Grace Guest');
    await page.getByRole('button', { name: 'Join meeting' }).click();
    await expect(page).toHaveTitle('Waiting for the host · Weekly sync · Suite');
    await page.evaluate(() => {
      (window as unknown as { __hidden: boolean }).__hidden = true;
      document.dispatchEvent(new Event('visibilitychange'));
    });

    const hostPage = await (await browser.newContext()).newPage();
    await signIn(hostPage, host, `/meet/${meeting._id}`);
    await new MeetingRoomPage(hostPage).joinFromSetup();
    await expect(page).toHaveTitle(/^The host let you in · /, { timeout: 20_000 });
    await expect.poll(() => page.evaluate(() => (window as unknown as { __tones: number }).__tones)).toBe(2);
    await new MeetingRoomPage(page).expectJoined();
    await expect(page).toHaveTitle('The host let you in · Weekly sync · Suite');
    // Looked at again: the room's own title.
    await page.evaluate(() => {
      (window as unknown as { __hidden: boolean }).__hidden = false;
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect(page).toHaveTitle('Weekly sync · Suite');
    await hostPage.context().close();
    await page.context().close();
  });
});

test.describe('pre-join in the dark scheme', () => {
  test.use({ colorScheme: 'dark' });
  test('every new state keeps AA contrast (axe): guest with errors, waiting, no devices, blocked', async ({
    browser,
    page,
    request,
  }) => {
    test.slow();
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host, 'Weekly sync');
    await page.goto(`/meet/${meeting._id}`);
    await expect(page.getByTestId('meeting-state')).toBeVisible();
    await page.getByRole('button', { name: 'Join meeting' }).click();
    await expect(page.getByText('Enter your name.')).toBeVisible();
    await expect(page.getByText('Accept the terms of use to continue.')).toBeVisible();
    await expect(page.getByText('Please fill in all fields.')).toHaveCount(1);
    await accessible(page, 'guest pre-join with errors (dark)');
    await fillGuestForm(page, 'Grace Guest');
    await page.getByRole('button', { name: 'Join meeting' }).click();
    await expect(page.getByTestId('meeting-waiting')).toBeVisible();
    await accessible(page, 'waiting for the host (dark)');
    for (const [state, failure] of [
      ['no devices', 'NotFoundError'],
      ['blocked', 'NotAllowedError'],
    ] as const) {
      const context = await browser.newContext({ colorScheme: 'dark' });
      const other = await context.newPage();
      await other.addInitScript((name) => {
        navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('refused', name));
        navigator.mediaDevices.enumerateDevices = () => Promise.resolve([]);
      }, failure);
      await signIn(other, host, `/meet/${meeting._id}`);
      await expect(other.getByRole('button', { name: 'Join as spectator' })).toBeVisible();
      await accessible(other, `${state} (dark)`);
      await context.close();
    }
  });
});
