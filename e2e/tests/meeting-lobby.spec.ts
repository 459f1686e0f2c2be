import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeJwt } from 'jose';
import { request, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import {
  test,
  expect,
  createAccount,
  expectAccessible,
  mailbox,
  uniqueEmail,
  TAKING_SCREENSHOTS,
  type Account,
} from '../fixtures/test';
import { MeetingRoomPage, fillGuestForm, signIn } from '../pages/meeting-room';

const SHOTS = `${process.env.E2E_SCREENSHOT_DIR ?? '../.tmp/screenshots'}/lobby`;

/** A meeting created through the API with the access level under test. */
async function createMeeting(request: APIRequestContext, host: Account, access: string) {
  const res = await request.post('/api/v2/videoconference', {
    headers: { authorization: `Bearer ${host.token}` },
    data: { title: 'Design review', access },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { _id: string; access: string };
}

interface MeetingTexts {
  setup: { camera: string };
  lobby: { waitingFor: string; host: { admitName: string } };
}

/** The meeting screen's texts of a language, read from the web's own locale file (one source of truth). */
function meetingTexts(lang: string): MeetingTexts {
  const file = new URL(`../../apps/web/src/locales/${lang}/meeting.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as MeetingTexts;
}

/** The pictures a person looks at: taken by `npm run screenshots` only. */
async function shots(page: Page, name: string) {
  if (!TAKING_SCREENSHOTS) return;
  for (const [width, height] of [
    [1280, 800],
    [360, 740],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The host, signed in, in the room of their meeting (on Playwright's clock: no 2 s of "Entering…" waited out). */
async function hostInRoom(browser: Browser, host: Account, room: string, locale = 'en-US') {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  const hostRoom = new MeetingRoomPage(page);
  await signIn(page, host, `/meet/${room}`, () => page.clock.install());
  await expect(page.getByTestId('meeting-setup')).toBeVisible();
  await expect(page.getByLabel(meetingTexts(locale.slice(0, 2)).setup.camera).first()).toBeVisible();
  await page.getByTestId('meeting-setup').locator('button[type=submit]').click();
  await hostRoom.enterWithoutWaiting();
  // The stand-in's frame joined (expectJoined reads the English bar).
  if (locale.startsWith('en')) await hostRoom.expectJoined();
  else await expect(page.getByTestId('jitsi-container').locator('iframe')).toBeVisible();
  return { context, page, hostRoom };
}

/**
 * A guest on the pre-join, name and terms given, about to press "Ask to join". The page runs on Playwright's
 * clock (time flows as usual): once admitted, enterWithoutWaiting() carries it past "Entering…" rather than
 * the 2 s being waited out.
 */
async function guestAsks(browser: Browser, room: string, name: string, locale = 'en-US') {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  await page.clock.install();
  await page.goto(`/meet/${room}`);
  await expect(page.getByTestId('meeting-setup')).toBeVisible();
  // The pre-join is on screen before the app has taken it over: a box ticked before then is unticked again.
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  await page.getByTestId('meeting-setup').getByRole('textbox').first().fill(name);
  await page.getByTestId('meeting-setup').getByRole('checkbox').first().check();
  return { context, page, guest: new MeetingRoomPage(page) };
}

/**
 * A guest who asks to join without a browser, through the calls the pre-join makes: the guest record (name
 * and terms), then the token request, which queues them (202) and sets the lobby cookie in this context.
 */
async function guestAsksByApi(room: string, name: string) {
  const api = await request.newContext({ baseURL: test.info().project.use.baseURL });
  const guest = await api.post('/api/guest', { data: { name, accepted_terms: { version: 1 } } });
  expect(guest.status(), await guest.text()).toBe(201);
  const { _id: guestId } = (await guest.json()) as { _id: string };
  const ask = () => api.post('/api/v2/videoconference/guest/token', { data: { room_name: room, guest_id: guestId } });
  const asked = await ask();
  expect(asked.status(), await asked.text()).toBe(202);
  return { askAgain: async () => (await ask()).status(), dispose: () => api.dispose() };
}

test.describe('the meeting lobby', () => {
  test('ask → admit → in the room, with a valid token only after the admit', async ({ browser, request }) => {
    test.slow();
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host, 'organisation');
    const { context: hostContext, page: hostPage } = await hostInRoom(browser, host, meeting._id);

    const { context, page, guest } = await guestAsks(browser, meeting._id, 'Grace Guest');
    await fillGuestForm(page, 'Grace Guest');
    await page.getByRole('button', { name: 'Ask to join' }).click();
    const card = page.getByTestId('meeting-lobby');
    await expect(
      card.getByRole('heading', { name: /Waiting for Ada to let you in|Nobody can let you in yet/ }),
    ).toBeVisible();
    await expect(card.getByRole('heading', { name: 'Waiting for Ada to let you in' })).toBeVisible({ timeout: 20_000 });
    await expect(card.getByTestId('self-view')).toBeVisible();
    // The same way out as the waiting room's, under the same name.
    await expect(card.getByRole('button', { name: 'Leave the waiting room' })).toBeVisible();
    // No token while waiting: the stand-in was never constructed.
    expect(await guest.calls()).toEqual([]);
    await expectAccessible(page, 'lobby waiting card');
    await shots(page, 'waiting-card-en');

    const list = hostPage.getByTestId('lobby-requests');
    await expect(list.getByText('Grace Guest')).toBeVisible();
    await expect(list.getByText(/Guest · waiting since/)).toBeVisible();
    await expect(hostPage).toHaveTitle(/^1 asking to join/);
    await expectAccessible(hostPage, 'lobby request list', ['#jitsiConferenceFrame0']);
    await shots(hostPage, 'request-list-en');

    await list.getByRole('button', { name: 'Admit Grace Guest' }).click();
    await guest.enterWithoutWaiting();
    await guest.expectJoined();
    const claims = decodeJwt((await guest.constructed()).options!.jwt!) as {
      room: string;
      context: { user: { moderator: boolean } };
    };
    expect(claims).toMatchObject({ room: meeting._id, context: { user: { moderator: false } } });
    await expect(list).toHaveCount(0);
    await context.close();
    await hostContext.close();
  });

  test('deny → the person is told, may ask once more', async ({ browser, request }) => {
    test.slow();
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host, 'restricted');
    const { context: hostContext, page: hostPage } = await hostInRoom(browser, host, meeting._id);
    const { context, page, guest } = await guestAsks(browser, meeting._id, 'Dan Denied');
    await fillGuestForm(page, 'Dan Denied');
    await page.getByRole('button', { name: 'Ask to join' }).click();
    await hostPage.getByTestId('lobby-requests').getByRole('button', { name: 'Deny Dan Denied' }).click();
    await expect(page.getByRole('heading', { name: 'The host did not let you in' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ask again' })).toBeVisible();
    expect(await guest.calls()).toEqual([]);
    await context.close();
    await hostContext.close();
  });

  test('a signed-in colleague goes straight in on organisation', async ({ browser, request }) => {
    const host = await createAccount(request);
    const domain = host.email.split('@')[1];
    const colleague = await createAccount(request, `colleague-${randomBytes(3).toString('hex')}@${domain}`);
    const meeting = await createMeeting(request, host, 'organisation');
    const { context: hostContext } = await hostInRoom(browser, host, meeting._id);
    const context = await browser.newContext();
    const page = await context.newPage();
    const room = new MeetingRoomPage(page);
    await signIn(page, colleague, `/meet/${meeting._id}`, () => page.clock.install());
    // The pre-join says Join, not Ask to join, and the token comes at once.
    await expect(page.getByRole('button', { name: 'Ask to join' })).toHaveCount(0);
    await room.joinFromSetup();
    await room.enterWithoutWaiting();
    await room.expectJoined();
    expect(decodeJwt((await room.constructed()).options!.jwt!)).toMatchObject({ room: meeting._id });
    await context.close();
    await hostContext.close();
  });

  test('host leaves → a co-host admits; Admit all lets ten in at once', async ({ browser, request }) => {
    test.slow();
    const host = await createAccount(request);
    const domain = host.email.split('@')[1];
    const cohost = await createAccount(request, `cohost-${randomBytes(3).toString('hex')}@${domain}`);
    const meeting = await createMeeting(request, host, 'restricted');
    const named = await request.post(`/api/v2/videoconference/${meeting._id}/cohosts`, {
      headers: { authorization: `Bearer ${host.token}` },
      data: { email: cohost.email },
    });
    expect(named.status(), await named.text()).toBe(200);
    const { context: hostContext, hostRoom } = await hostInRoom(browser, host, meeting._id);
    const { context: cohostContext, page: cohostPage } = await hostInRoom(browser, cohost, meeting._id);
    await hostRoom.leaveButton().click();
    await hostContext.close();

    // Two guests ask from the pre-join and are seen going in; eight more ask the way their pre-join would
    // (a guest record, then the token request that queues them, each with its own cookie jar), so that
    // Admit all is tried on ten without ten browsers.
    const names = ['Ann', 'Ben', 'Cid', 'Dee', 'Eli', 'Fay', 'Gus', 'Hal', 'Ivy', 'Joe'].map((n) => `${n} Guest`);
    const inBrowsers = [];
    for (const name of names.slice(0, 2)) {
      const g = await guestAsks(browser, meeting._id, name);
      await g.page.getByTestId('meeting-setup').locator('button[type=submit]').click();
      await expect(g.page.getByTestId('meeting-lobby')).toBeVisible();
      inBrowsers.push(g);
    }
    const byApi = await Promise.all(names.slice(2).map((name) => guestAsksByApi(meeting._id, name)));
    const list = cohostPage.getByTestId('lobby-requests');
    await expect(list.getByTestId('lobby-request')).toHaveCount(names.length);
    await list.getByRole('button', { name: 'Admit all' }).click();
    for (const g of inBrowsers) {
      await g.guest.enterWithoutWaiting();
      await g.guest.expectJoined();
    }
    for (const g of byApi) expect(await g.askAgain(), 'an admitted guest gets the meeting token').toBe(200);
    await expect(list).toHaveCount(0);
    for (const g of inBrowsers) await g.context.close();
    for (const g of byApi) await g.dispose();
    await cohostContext.close();
  });

  test("an invitee's mailed link goes straight in on restricted; the host sees who joined", async ({
    browser,
    request,
  }) => {
    test.slow();
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host, 'restricted');
    const to = uniqueEmail('invitee');
    const invited = await request.post(`/api/v2/videoconference/${meeting._id}/invitees`, {
      headers: { authorization: `Bearer ${host.token}` },
      data: { emails: [to] },
    });
    expect(invited.status(), await invited.text()).toBe(200);
    const link = await mailbox.link(to, /\/meet\/[a-z-]+\?invite=/);
    const { context: hostContext } = await hostInRoom(browser, host, meeting._id);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(link);
    await fillGuestForm(page, 'Ines Invitee');
    // The token is gone from the address bar; Join is Join, not Ask to join.
    expect(new URL(page.url()).search).toBe('');
    const guest = new MeetingRoomPage(page);
    await page.getByRole('button', { name: 'Join meeting' }).click();
    await guest.enterWithoutWaiting();
    await guest.expectJoined();
    const list = await request.get(`/api/v2/videoconference/${meeting._id}/invitees`, {
      headers: { authorization: `Bearer ${host.token}` },
    });
    expect((await list.json()).data[0]).toMatchObject({ email: to, revoked: false, joined_at: expect.any(String) });
    await context.close();
    await hostContext.close();
  });

  test('the level is chosen at creation on the home and changed from the room', async ({ browser, request }) => {
    const host = await createAccount(request);
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, host, '/app', () => page.clock.install());
    const panel = page.getByRole('region', { name: 'Meetings' });
    await panel.getByLabel('Who gets in without asking').selectOption('restricted');
    await panel.getByRole('button', { name: 'Create for later' }).click();
    await expect(panel.getByTestId('meeting-item')).toHaveCount(1);
    await shots(page, 'home-access');
    const list = await request.get('/api/v2/videoconference', { headers: { authorization: `Bearer ${host.token}` } });
    const [meeting] = (await list.json()).data as { _id: string; access: string }[];
    expect(meeting!.access).toBe('restricted');

    await page.goto(`/meet/${meeting!._id}`);
    const room = new MeetingRoomPage(page);
    await room.joinFromSetup();
    await room.enterWithoutWaiting();
    await room.expectJoined();
    await page.getByRole('button', { name: /Who gets in without asking: Only me and co-hosts/ }).click();
    await page.getByTestId('meeting-access').selectOption('open');
    await expect(page.getByRole('button', { name: /Who gets in without asking: Anyone with the link/ })).toBeVisible();
    // The host invites by email from the same panel and sees the invitation listed.
    const people = page.getByTestId('meeting-people');
    const to = uniqueEmail('panel');
    await people.getByLabel('Invite by email').fill(to);
    await people.getByRole('button', { name: 'Send' }).click();
    await expect(people.getByRole('list', { name: 'Invitees' }).getByText(to)).toBeVisible();
    await expect(people.getByText('Invited', { exact: true })).toBeVisible();
    await mailbox.waitFor(to, { match: /invited you to a meeting/ });
    await expectAccessible(page, 'room access panel', ['#jitsiConferenceFrame0']);
    await shots(page, 'room-access');
    const after = await request.get(`/api/v2/videoconference/${meeting!._id}`);
    expect((await after.json()).join).toBe('direct');
    await context.close();
  });

  for (const [lang, locale] of [
    ['pt', 'pt-BR'],
    ['es', 'es-ES'],
    ['hi', 'hi-IN'],
    ['it', 'it-IT'],
  ] as const) {
    test(`in ${lang}: the waiting card and the request list`, async ({ browser, request }) => {
      test.slow();
      const texts = meetingTexts(lang).lobby;
      const host = await createAccount(request);
      const meeting = await createMeeting(request, host, 'organisation');
      const { context: hostContext, page: hostPage } = await hostInRoom(browser, host, meeting._id, locale);
      const { context, page } = await guestAsks(browser, meeting._id, 'Priya Guest', locale);
      await page.getByTestId('meeting-setup').locator('button[type=submit]').click();
      await expect(
        page.getByTestId('meeting-lobby').getByRole('heading', { name: texts.waitingFor.replace('{{name}}', 'Ada') }),
      ).toBeVisible({ timeout: 20_000 });
      await expectAccessible(page, `lobby waiting card (${lang})`);
      await shots(page, `waiting-card-${lang}`);
      const list = hostPage.getByTestId('lobby-requests');
      await expect(list.getByText('Priya Guest')).toBeVisible();
      await expectAccessible(hostPage, `lobby request list (${lang})`);
      await shots(hostPage, `request-list-${lang}`);
      await list.getByRole('button', { name: texts.host.admitName.replace('{{name}}', 'Priya Guest') }).click();
      await new MeetingRoomPage(page).enterWithoutWaiting();
      await context.close();
      await hostContext.close();
    });
  }
});
