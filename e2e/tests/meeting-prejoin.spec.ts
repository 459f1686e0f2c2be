import { decodeJwt } from 'jose';
import type { Locator, Page } from '@playwright/test';
import { test, expect, createAccount } from '../fixtures/test';
import { accessible } from '../pages/a11y';
import { MeetingRoomPage, createMeeting, fillGuestForm, hostOpens, signIn } from '../pages/meeting-room';

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
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host, 'Weekly sync');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`/meet/${meeting._id}`);
    await fillGuestForm(page, 'Grace Guest');
    await expect(page.getByRole('heading', { name: 'Check your audio and video' })).toBeVisible();
    await expect(page.getByTestId('setup-meeting-name')).toHaveText('Weekly sync');
    await expect(page).toHaveTitle('Check your audio and video · Weekly sync · Suite');
    const name = page.getByRole('textbox', { name: 'Your name' });
    await expect(name).toHaveValue('Grace Guest');
    const join = page.getByRole('button', { name: 'Join meeting' });
    await expectInViewport(page, join);

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
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await accessible(page, 'pre-join at 360 px');

    await name.fill('Grace Hopper');
    await join.click();
    // Waiting for the host names the meeting and offers a way out.
    const waiting = page.getByTestId('meeting-waiting');
    await expect(waiting.getByRole('heading', { name: 'Waiting for the host' })).toBeVisible();
    await expect(waiting.getByText('Weekly sync')).toBeVisible();
    await expect(page).toHaveTitle('Waiting for the host · Weekly sync · Suite');
    await accessible(page, 'waiting for host');
    await waiting.getByRole('button', { name: 'Leave the waiting room' }).click();
    await expect(page.getByRole('heading', { name: "You've left the room" })).toBeVisible();

    // The host arrives; the guest rejoins under the name typed on the pre-join screen.
    const hostPage = await (await browser.newContext()).newPage();
    await signIn(hostPage, host, `/meet/${meeting._id}`);
    const hostRoom = new MeetingRoomPage(hostPage);
    await hostRoom.joinFromSetup();
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
    await expect(page.getByRole('heading', { name: 'Video conference not found.' })).toBeVisible();
    await expect(page).toHaveTitle('Video conference not found. · zzz-zzzz-zzz · Suite');
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
