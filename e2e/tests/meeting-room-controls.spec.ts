import type { Locator, Page } from '@playwright/test';
import { test, expect, createAccount, screenshots } from '../fixtures/test';
import { accessible } from '../pages/a11y';
import {
  MeetingRoomPage,
  createMeeting,
  fillGuestForm,
  hostJoins,
  meetingAndNewBrowser,
  signIn,
} from '../pages/meeting-room';
import { boxOf } from '../pages/box';

/** the room: one set of controls, menus that behave, one-click leave, readable names. */

const FRAME = ['[data-testid="jitsi-container"]'];
const bar = (page: Page) => page.getByRole('navigation', { name: 'Meeting controls' });

/** Is the title's text shown whole: inside its box (it may wrap, never "…"), and clear of the controls? */
const whole = (l: Locator) =>
  l.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    const controls = el.closest('header')!.querySelector('nav')!.getBoundingClientRect();
    return (
      getComputedStyle(el).textOverflow !== 'ellipsis' &&
      text.left >= box.left - 1 &&
      text.right <= box.right + 1 &&
      text.bottom <= box.bottom + 1 &&
      text.right <= controls.left
    );
  });

test.describe('one set of controls', () => {
  test('our bar, named and with tooltips; Jitsi is sent a toolbar without them', async ({ page, request }) => {
    const { room } = await hostJoins(page, request);
    const names = ['Mute microphone', 'Turn off camera', 'Share screen', 'Copy invite link', 'Leave', 'Leave options'];
    for (const name of names) await expect(bar(page).getByRole('button', { name, exact: true })).toBeVisible();
    // Not next to Leave, not anywhere in the bar: only inside the leave button's menu.
    await expect(page.getByRole('button', { name: 'End for everyone' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'More actions' })).toBeHidden();
    // Hover shows the tooltip (CSS ::after from data-tip) with the same words.
    const share = bar(page).getByRole('button', { name: 'Share screen' });
    await expect(share).toHaveAttribute('data-tip', 'Share screen');
    await share.hover();
    await expect.poll(() => share.evaluate((el) => getComputedStyle(el, '::after').opacity)).toBe('1');

    // What our bar shows, Jitsi's toolbar does not: the config sent, and the stand-in's frame that follows it.
    const { configOverwrite, interfaceConfigOverwrite } = (await room.constructed()).options!;
    for (const toolbar of [configOverwrite.toolbarButtons, interfaceConfigOverwrite.TOOLBAR_BUTTONS] as string[][]) {
      for (const b of ['microphone', 'camera', 'desktop', 'invite', 'hangup']) expect(toolbar).not.toContain(b);
      expect(toolbar).toEqual(expect.arrayContaining(['chat', 'raisehand', 'tileview', 'settings']));
    }
    await expect(room.frame().getByTestId('jitsi-toolbar')).toContainText('chat');
    await expect(room.frame().getByRole('button', { name: 'Hang up' })).toBeHidden();
    await accessible(page, 'room', FRAME);
  });
});

test.describe('leaving', () => {
  test('Leave is one click, the left page names the meeting and offers Rejoin first', async ({ page, request }) => {
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host, 'Design review');
    await signIn(page, host, `/meet/${meeting._id}`, () => page.clock.install());
    const room = new MeetingRoomPage(page);
    await room.joinFromSetup();
    await room.enterWithoutWaiting();
    await room.expectJoined();
    await room.leaveButton().click();
    const left = page.getByTestId('meeting-left');
    await expect(left.getByRole('heading', { name: "You've left the room" })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await room.commands('hangup')).toHaveLength(1);
    await expect(left.getByText('Design review')).toBeVisible();
    // The text says what the title does not.
    await expect(left.locator('p').last()).toHaveText('Left by mistake? Rejoin with one click.');
    await expect(left.getByText(/You left/)).toHaveCount(0);
    await expect(left.getByRole('button').or(left.getByRole('link')).first()).toHaveText('Rejoin');
    await accessible(page, 'left page');
    await screenshots(page, 'meeting-left');
    await left.getByRole('button', { name: 'Rejoin' }).click();
    await room.enterWithoutWaiting();
    await room.expectJoined();
  });

  test('End for everyone: only in the host’s leave menu, which keyboard and screen readers can use', async ({
    browser,
    page,
    request,
  }) => {
    const { host, meeting, room } = await hostJoins(page, request);
    const caret = page.getByRole('button', { name: 'Leave options' });
    await expect(caret).toHaveAttribute('aria-haspopup', 'menu');
    await expect(caret).toHaveAttribute('aria-expanded', 'false');

    // Keyboard: Enter opens with the focus on the first item, Escape closes and gives the focus back.
    await caret.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Leave options' });
    await expect(menu).toBeVisible();
    await expect(caret).toHaveAttribute('aria-expanded', 'true');
    await expect(caret).toHaveAttribute('aria-controls', (await menu.getAttribute('id'))!);
    const end = menu.getByRole('menuitem', { name: 'End for everyone' });
    await expect(end).toBeFocused();
    await expect(menu.getByRole('menuitem')).toHaveCount(1);
    await accessible(page, 'leave menu', FRAME);
    await screenshots(page, 'meeting-leave-menu');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(caret).toBeFocused();
    // A click elsewhere closes it too.
    await caret.click();
    await expect(menu).toBeVisible();
    await page.getByTestId('meeting-title').click();
    await expect(menu).toBeHidden();

    // Someone else in the meeting: no caret, no End for everyone.
    const other = await createAccount(request);
    const otherPage = await (await browser.newContext()).newPage();
    await signIn(otherPage, other, `/meet/${meeting._id}`, () => otherPage.clock.install());
    const otherRoom = new MeetingRoomPage(otherPage);
    await otherRoom.joinFromSetup();
    await otherRoom.enterWithoutWaiting();
    await otherRoom.expectJoined();
    await expect(otherPage.getByRole('button', { name: 'Leave options' })).toHaveCount(0);
    await expect(otherPage.getByText('End for everyone')).toHaveCount(0);
    await otherPage.context().close();

    // The host ends it: asked first (it disconnects everyone), then Jitsi and our server end the session.
    await (await room.openLeaveMenu()).getByRole('menuitem', { name: 'End for everyone' }).click();
    const dialog = page.getByRole('dialog', { name: 'End the meeting for everyone?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'End for everyone' }).click();
    await expect(page.getByRole('heading', { name: "You've left the room" })).toBeVisible();
    expect(await room.commands('endConference')).toHaveLength(1);
    expect(host.firstName).toBe('Ada');
  });
});

test.describe('below 480 px', () => {
  test('secondary actions fold into "⋯", the title stays whole, one row, nothing sideways', async ({
    page,
    request,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host, 'Quarterly planning');
    await signIn(page, host, `/meet/${meeting._id}`);
    const room = new MeetingRoomPage(page);
    await room.joinFromSetup();
    await room.expectJoined();
    await page.setViewportSize({ width: 360, height: 740 });
    const title = page.getByTestId('meeting-title');
    await expect(title).toHaveText('Quarterly planning');
    expect(await whole(title)).toBe(true);
    // Even a long name wraps whole instead of ending in "…".
    await title.evaluate((el) => (el.textContent = 'Quarterly planning with the design and research teams'));
    expect(await whole(title)).toBe(true);
    for (const name of ['Share screen', 'Copy invite link'])
      await expect(bar(page).getByRole('button', { name })).toBeHidden();
    const more = bar(page).getByRole('button', { name: 'More actions' });
    await expect(more).toBeVisible();
    const visible = bar(page).locator('button:visible, a:visible');
    const tops = new Set(
      (await visible.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top))).map(Math.round),
    );
    expect([...tops]).toHaveLength(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // The menu: arrow keys move, wrap around, Escape gives the focus back.
    await more.focus();
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu', { name: 'More actions' });
    const items = menu.getByRole('menuitem');
    await expect(items).toHaveText(['Share screen', 'Copy invite link']);
    await expect(items.first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(items.nth(1)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(items.first()).toBeFocused();
    await page.keyboard.press('End');
    await expect(items.nth(1)).toBeFocused();
    await accessible(page, 'more menu', FRAME);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(more).toBeFocused();

    // Choosing an item does it and closes the menu.
    await more.click();
    await menu.getByRole('menuitem', { name: 'Copy invite link' }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole('banner').getByRole('status')).toHaveText('Link copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/meet/${meeting._id}$`));
    await more.click();
    await menu.getByRole('menuitem', { name: 'Share screen' }).click();
    expect(await room.commands('toggleShareScreen')).toHaveLength(1);
    // Last: the 360 px shot shows the menu open (the 1280 px one the bar without it).
    await more.click();
    await expect(menu).toBeVisible();
    await screenshots(page, 'meeting-more-menu');
  });
});

test.describe('an untitled meeting', () => {
  test('is called after its host, in the room and on the home, never by its id', async ({ browser, request }) => {
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host);
    const view = await request.get(`/api/v2/videoconference/${meeting._id}`);
    expect(await view.json()).toEqual({
      _id: meeting._id,
      title: '',
      status: 'not_started',
      host_name: 'Ada',
      participants: { count: 0, names: [] },
      // An open meeting (e2e/env.ts): a guest goes straight in once the host is there.
      join: 'direct',
    });

    const page = await (await browser.newContext()).newPage();
    await signIn(page, host, '/app', () => page.clock.install());
    const item = page.getByRole('region', { name: 'Meetings' }).getByTestId('meeting-item');
    await expect(item.getByText("Ada's meeting", { exact: true })).toBeVisible();
    await page.goto(`/meet/${meeting._id}`);
    const room = new MeetingRoomPage(page);
    await room.joinFromSetup();
    await room.enterWithoutWaiting();
    await room.expectJoined();
    await expect(page.getByTestId('meeting-title')).toHaveText("Ada's meeting");
    await expect(page).toHaveTitle(/^Ada's meeting · /);

    // A guest reads the same name; no address anywhere on their screens.
    const guestPage = await (await browser.newContext()).newPage();
    await guestPage.clock.install();
    await guestPage.goto(`/meet/${meeting._id}`);
    await fillGuestForm(guestPage, 'Grace Guest');
    await expect(guestPage.getByText("Ada's meeting")).toBeVisible();
    expect(await guestPage.locator('body').innerText()).not.toContain('@');
    const guest = new MeetingRoomPage(guestPage);
    await guest.joinFromSetup();
    await guest.enterWithoutWaiting();
    await guest.expectJoined();
    await expect(guestPage.getByTestId('meeting-title')).toHaveText("Ada's meeting");
    expect(await guestPage.locator('body').innerText()).not.toContain(host.email);
    await accessible(guestPage, 'untitled room', FRAME);
    await screenshots(guestPage, 'meeting-untitled');
    await guestPage.context().close();
    await page.context().close();
  });
});

test.describe('the two small ones', () => {
  test('meetings not configured: the home says so, never "your meeting is ready"', async ({ page, request }) => {
    const host = await createAccount(request);
    await page.route('**/api/config', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), meetDomain: null } });
    });
    await signIn(page, host, '/app');
    const panel = page.getByRole('region', { name: 'Meetings' });
    await expect(panel.getByTestId('meetings-not-configured')).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Start a meeting' })).toHaveCount(0);
    await expect(panel.getByText(/ready|share this link/i)).toHaveCount(0);
  });

  test('a guest on a 360×740 phone sees the whole Join meeting button', async ({ browser, request }) => {
    const { meeting, page } = await meetingAndNewBrowser(browser, request, {
      viewport: { width: 360, height: 740 },
    });
    await page.goto(`/meet/${meeting._id}`);
    await fillGuestForm(page, 'Grace Guest');
    const join = page.getByRole('button', { name: 'Join meeting' });
    await expect(join).toBeVisible();
    const box = await boxOf(join);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(740);
    await page.context().close();
  });
});
