import { decodeJwt } from 'jose';
import type { Page } from '@playwright/test';
import { test, expect, createAccount, screenshots, expectAccessible } from '../fixtures/test';
import { MeetingRoomPage, createMeeting, fillGuestForm, signIn } from '../pages/meeting-room';

/** /guest's own form (a link that is not to one of our meetings): name, terms, Continue. */
async function fillGuestPage(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Join as a guest' })).toBeVisible();
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel(/I have read and accept/).check();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test.describe('host and guest meet', () => {
  test('a guest waits for the host and joins when the host does; both can leave', async ({ browser, request }) => {
    // Two contexts with fake media, the pre-join at two sizes and the 5 s retry: over a minute on a busy machine.
    test.slow();
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host, 'Weekly sync');

    const guestContext = await browser.newContext();
    const guestPage = await guestContext.newPage();
    const guest = new MeetingRoomPage(guestPage);
    // Both pages run on Playwright's clock: the waiting guest's next ask (5 s) and the 2 s of "Entering the
    // meeting…" are moved on rather than waited for.
    await guestPage.clock.install();
    await guestPage.goto(`/meet/${meeting._id}`);
    // A new guest gives the name and accepts the terms on the pre-join itself.
    await fillGuestForm(guestPage, 'Grace Guest');
    await screenshots(guestPage, 'guest-prejoin');
    await expectAccessible(guestPage, 'guest pre-join');
    await guest.joinFromSetup();
    await expect(guestPage.getByRole('heading', { name: 'Waiting for the host' })).toBeVisible();
    expect(await guestPage.evaluate(() => localStorage.getItem('guestId'))).toMatch(/^[0-9a-f]{24}$/);
    await expect(guestPage).toHaveURL(new RegExp(`/meet/${meeting._id}$`));
    await screenshots(guestPage, 'meeting-waiting');
    await expectAccessible(guestPage, 'waiting for host');
    expect(await guest.calls()).toEqual([]);

    const hostContext = await browser.newContext();
    const hostPage = await hostContext.newPage();
    const hostRoom = new MeetingRoomPage(hostPage);
    await signIn(hostPage, host, `/meet/${meeting._id}`, () => hostPage.clock.install());
    await hostRoom.joinFromSetup();
    await expect(hostPage.getByRole('status').filter({ hasText: 'Entering the meeting…' })).toBeVisible();
    await hostRoom.enterWithoutWaiting();
    await hostRoom.expectJoined();
    const hostInit = await hostRoom.constructed();
    expect(hostInit.options?.roomName).toBe(meeting._id);
    expect(decodeJwt(hostInit.options!.jwt!)).toMatchObject({
      room: meeting._id,
      context: { user: { moderator: true } },
    });
    await expect(hostPage.getByText('Weekly sync')).toBeVisible();
    await screenshots(hostPage, 'meeting-joined');

    // The guest's next try (every 5 s) finds the session started.
    await guest.enterWithoutWaiting();
    await guest.expectJoined();
    const guestInit = await guest.constructed();
    const claims = decodeJwt(guestInit.options!.jwt!) as { context: { user: { name: string; moderator: boolean } } };
    expect(claims.context.user).toMatchObject({ name: 'Grace Guest', moderator: false });
    expect(guestInit.options?.userInfo.displayName).toBe('Grace Guest');

    // One click: no question (the left page's Rejoin is the undo).
    await guest.leaveButton().click();
    await expect(guestPage.getByRole('heading', { name: "You've left the room" })).toBeVisible();
    expect(await guest.commands('hangup')).toHaveLength(1);
    await screenshots(guestPage, 'meeting-left');
    await expectAccessible(guestPage, 'left page');

    // Jitsi's own hangup (videoConferenceLeft without our dialog) also ends on the left page.
    await hostRoom.emit('videoConferenceLeft', { roomName: meeting._id });
    await expect(hostPage.getByRole('heading', { name: "You've left the room" })).toBeVisible();
    await hostPage.getByRole('button', { name: 'Rejoin' }).click();
    await hostRoom.enterWithoutWaiting();
    await hostRoom.expectJoined();
    await guestContext.close();
    await hostContext.close();
  });

  test('the host ends the meeting for everyone; newcomers wait for the host again', async ({ browser, request }) => {
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host);
    const hostPage = await (await browser.newContext()).newPage();
    const hostRoom = new MeetingRoomPage(hostPage);
    await signIn(hostPage, host, `/meet/${meeting._id}`, () => hostPage.clock.install());
    await hostRoom.joinFromSetup();
    await hostRoom.enterWithoutWaiting();
    await hostRoom.expectJoined();

    const guestPage = await (await browser.newContext()).newPage();
    const guest = new MeetingRoomPage(guestPage);
    await guestPage.clock.install();
    await guestPage.goto(`/meet/${meeting._id}`);
    await fillGuestForm(guestPage, 'Grace Guest');
    await guest.joinFromSetup();
    await guest.enterWithoutWaiting();
    await guest.expectJoined();
    await expect(guestPage.getByRole('button', { name: 'End for everyone' })).toHaveCount(0);
    await expect(guestPage.getByRole('button', { name: 'Leave options' })).toHaveCount(0);

    await (await hostRoom.openLeaveMenu()).getByRole('menuitem', { name: 'End for everyone' }).click();
    await hostPage
      .getByRole('dialog', { name: 'End the meeting for everyone?' })
      .getByRole('button', { name: 'End for everyone' })
      .click();
    await expect(hostPage.getByRole('heading', { name: "You've left the room" })).toBeVisible();
    expect(await hostRoom.commands('endConference')).toHaveLength(1);

    await guestPage.reload();
    await guest.joinFromSetup();
    await expect(guestPage.getByRole('heading', { name: 'Waiting for the host' })).toBeVisible();
    await guestPage.context().close();
    await hostPage.context().close();
  });

  // With no meeting at all, the page says so before asking anything, and takes the meeting's code or link.
  test('/guest with no meeting says so at once and takes a code or link to the pre-join', async ({ page }) => {
    const response = await page.goto('/guest');
    expect(response?.status()).toBe(200);
    await expect(page.getByText(/does not say which meeting to join/)).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Your name' })).toHaveCount(0);
    await page.getByRole('textbox', { name: 'Meeting code or link' }).fill('zzz');
    await page.getByRole('button', { name: 'Join' }).click();
    await expect(page.getByText('Enter a meeting code like abc-defg-hij or a meeting link.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Meeting code or link' }).fill('abc-defg-hij');
    await page.getByRole('button', { name: 'Join' }).click();
    await expect(page).toHaveURL(/\/meet\/abc-defg-hij$/);
  });

  for (const unsafe of ['javascript:alert(1)', 'https://evil.example.com/meet/abc', '//evil.example.com/x']) {
    test(`an unsafe vc_link (${unsafe}) is refused`, async ({ page }) => {
      await page.goto(`/guest?vc_link=${encodeURIComponent(unsafe)}`);
      await fillGuestPage(page, 'Mallory');
      await expect(page.getByText(/could not take you to the meeting/)).toBeVisible();
      await expect(page).toHaveURL(/\/guest\?vc_link=/);
    });
  }

  test('a vc_link on the meeting domain is followed', async ({ page }) => {
    const config = (await (await page.request.get('/api/config')).json()) as { meetDomain: string };
    await page.goto(`/guest?vc_link=${encodeURIComponent(`${config.meetDomain}/room.html?room=x`)}`);
    await fillGuestPage(page, 'Grace');
    await expect(page).toHaveURL(`${config.meetDomain}/room.html?room=x`);
  });
});

test.describe('start a meeting from the signed-in home', () => {
  test('creates a meeting with one copyable link, lists it and deletes it', async ({ page, request, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const host = await createAccount(request);
    await signIn(page, host, '/app');
    const panel = page.getByRole('region', { name: 'Meetings' });
    await expect(panel.getByText('You have no meetings yet.')).toBeVisible();
    await panel.getByLabel('Meeting name (optional)').fill('Design review');
    await panel.getByRole('button', { name: 'Create for later' }).click();
    await expect(panel.getByRole('status').filter({ hasText: 'Your meeting is ready' })).toBeVisible();
    const item = panel.getByTestId('meeting-item');
    await expect(item).toHaveCount(1);
    // The link shows once, as text; the copy button puts the same link in the clipboard.
    await expect(item.getByText(/\/meet\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/)).toHaveCount(1);
    await expect(item.getByRole('textbox')).toHaveCount(0);
    await item.getByRole('button', { name: 'Copy the link of Design review' }).click();
    await expect(item.getByRole('button', { name: 'Copied' })).toBeVisible();
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/meet\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    await expect(item.getByRole('link', { name: 'Join Design review' })).toHaveAttribute('href', new URL(url).pathname);
    // A phone: the row wraps, nothing scrolls sideways (it was 471 px wide at 360).
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshots(page, 'meetings-panel');
    await page.setViewportSize({ width: 1280, height: 800 });
    // Join with a code or link: a wrong one is refused where it was typed, the link opens the meeting.
    const code = panel.getByRole('textbox', { name: 'Meeting code or link' });
    await code.fill('not a code');
    await panel.getByRole('button', { name: 'Join', exact: true }).click();
    await expect(panel.getByRole('alert')).toHaveText(
      'Enter a meeting code like abc-defg-hij, or paste a meeting link.',
    );
    await code.fill(url);
    await panel.getByRole('button', { name: 'Join', exact: true }).click();
    await expect(page).toHaveURL(new URL(url).pathname);
    await page.goBack();
    // Nobody has joined it: ending it would only kill its link, so the row says what it does.
    await expect(panel.getByRole('button', { name: 'End meeting Design review' })).toHaveCount(0);
    await panel.getByRole('button', { name: 'Delete meeting Design review' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete meeting' }).click();
    await expect(panel.getByText('You have no meetings yet.')).toBeVisible();
    // The ended meeting's link no longer works.
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Invite is not valid' })).toBeVisible();
  });
});
