import { SignJWT, decodeJwt } from 'jose';
import type { Page } from '@playwright/test';
import { test, expect, createAccount, screenshots } from '../fixtures/test';
import { MeetingRoomPage, createMeeting, fillGuestForm, hostJoins, hostOpens, signIn } from '../pages/meeting-room';
import { JITSI_APP_ID, JITSI_APP_SECRET } from '../env';

/** A token as our server signs it for the e2e meeting domain (HS256, iss/aud app id, sub domain, room). */
async function meetingJwt(room: string, user: { name: string; moderator: boolean }, secret = JITSI_APP_SECRET) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ room, context: { user: { id: 'ext-1', email: '', avatar: '', ...user } } })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(JITSI_APP_ID)
    .setAudience(JITSI_APP_ID)
    .setSubject('127.0.0.1')
    .setIssuedAt(now)
    .setNotBefore(now - 30)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(secret));
}

const tokenCalls = (page: Page) => {
  const urls: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/v2\/videoconference\/(guest\/)?token$/.test(r.url())) urls.push(r.url());
  });
  return urls;
};

test.describe('keep-alive with people already in the room', () => {
  for (const announce of [true, false]) {
    test(`no idle prompt while others are there (${announce ? 'announced as we join' : 'only in getRoomsInfo'})`, async ({
      page,
      request,
    }) => {
      await page.addInitScript((a) => {
        (window as unknown as { __jitsiOptions: unknown }).__jitsiOptions = {
          participants: [{ id: 'early1', displayName: 'Early Bird' }],
          announceParticipants: a,
        };
      }, announce);
      const { room } = await hostJoins(page, request, '');
      await page.clock.fastForward('16:00');
      const prompt = page.getByRole('alertdialog', { name: 'Keep the meeting open?' });
      await expect(prompt).toBeHidden();
      // They leave: alone now, the prompt comes after the idle time and counts down to a disconnect.
      await room.emit('participantLeft', { id: 'early1' });
      await page.clock.fastForward('15:00');
      await expect(prompt).toBeVisible();
      await page.clock.runFor(30_000);
      await expect(page.getByRole('heading', { name: "You've left the room" })).toBeVisible();
    });
  }
});

test.describe("Jitsi's own hangup button", () => {
  test('is not shown: our Leave is the one leave control (toolbarButtons leaves hangup out)', async ({
    page,
    request,
  }) => {
    const { room } = await hostJoins(page, request);
    const config = (await room.constructed()).options!.configOverwrite;
    expect(config.toolbarButtons).not.toContain('hangup');
    expect(config).not.toHaveProperty('buttonsWithNotifyClick');
    await expect(room.frame().getByTestId('jitsi-toolbar')).toContainText('tileview');
    await expect(room.frame().getByRole('button', { name: 'Hang up' })).toBeHidden();
    // Leaving from inside Jitsi (its own menu, a kick) still ends on our left page.
    await room.emit('videoConferenceLeft', { roomName: 'x' });
    await expect(page.getByRole('heading', { name: "You've left the room" })).toBeVisible();
  });
});

test.describe('meeting tokens in the conference frame', () => {
  test('a jwt link: entering for 2 s, no call to our token endpoint, moderator from the token', async ({
    page,
    request,
  }) => {
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host);
    const jwt = await meetingJwt(meeting._id, { name: 'Jay Token', moderator: true });
    const calls = tokenCalls(page);
    await page.clock.install();
    await page.goto(`/meet/${meeting._id}?jwt=${jwt}&start_recording=true`);
    const room = new MeetingRoomPage(page);
    await expect(page.getByRole('heading', { name: 'Ready to join?' })).toBeVisible();
    await expect(page.getByLabel('Camera', { exact: true })).toBeVisible();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.getByRole('button', { name: 'Join meeting' }).click();
    const entering = page.getByRole('status').filter({ hasText: 'Entering the meeting…' });
    await expect(entering).toBeVisible();
    await page.clock.runFor(1900);
    await expect(entering).toBeVisible();
    expect(await room.calls()).toEqual([]);
    await page.clock.runFor(200);
    await room.expectJoined();
    await page.clock.resume();
    const init = await room.constructed();
    expect(init.options?.jwt).toBe(jwt);
    expect(init.options?.roomName).toBe(meeting._id);
    // The stand-in accepted the token (it verifies as Jitsi would) and shows its name.
    await expect(room.frame().getByText('Joined as Jay Token')).toBeVisible();
    // Moderator from the jwt: the recording rule applies; no "End for everyone" (not our session).
    await page.clock.fastForward(3500);
    await expect.poll(async () => (await room.commands('startRecording')).length).toBe(1);
    await expect(page.getByRole('button', { name: 'End for everyone' })).toHaveCount(0);
    expect(calls).toEqual([]);
  });

  test('a token Jitsi would refuse does not join: errorOccurred opens the connection error with Try again', async ({
    page,
    request,
  }) => {
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host);
    const forged = await meetingJwt(meeting._id, { name: 'Mallory', moderator: true }, 'not-the-secret-0123456789');
    const otherRoom = await meetingJwt('zzz-zzzz-zzz', { name: 'Mallory', moderator: true });
    for (const jwt of [forged, otherRoom]) {
      await page.goto(`/meet/${meeting._id}?jwt=${jwt}`);
      const room = new MeetingRoomPage(page);
      await room.joinFromSetup();
      await expect.poll(async () => (await room.events('errorOccurred')).length).toBe(1);
      expect((await room.events('errorOccurred'))[0]!.payload).toMatchObject({
        name: 'conference.connectionError.notAllowed',
        isFatal: true,
      });
      await expect(room.frame().getByText(/Token refused/)).toBeVisible();
      expect(await room.events('videoConferenceJoined')).toEqual([]);
      const dialog = page.getByRole('dialog', { name: 'Error connecting to the meeting' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Try again' })).toBeVisible();
      await expect(page.getByText('Connecting to the meeting…')).toHaveCount(0);
    }
  });

  test('the frame URL honours noSSL (plain http for an http meeting origin)', async ({ page, request }) => {
    const { room } = await hostJoins(page, request);
    expect((await room.constructed()).options).toMatchObject({ noSSL: true });
    await expect(page.locator('#jitsiConferenceFrame0')).toHaveAttribute(
      'src',
      /^http:\/\/127\.0\.0\.1:\d+\/room\.html\?/,
    );
  });

  test('the name in the link is signed into the token and set again after joining', async ({ page, request }) => {
    const { room } = await hostJoins(page, request, '?first_name=Dora&last_name=Link');
    const init = await room.constructed();
    expect((decodeJwt(init.options!.jwt!) as { context: { user: { name: string } } }).context.user.name).toBe(
      'Dora Link',
    );
    await expect.poll(async () => (await room.commands('displayName')).map((c) => c.args)).toEqual([['Dora Link']]);
    await expect(room.frame().getByText('Joined as Dora Link')).toBeVisible();
  });
});

test.describe('server session while joined', () => {
  test('the page pings the session at join and every 5 minutes', async ({ page, request }) => {
    const pings: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/session/ping')) pings.push(r.method());
    });
    const firstAnswer = page.waitForResponse((r) => r.url().endsWith('/session/ping'));
    // The delays the page's timers are set with: a script added after the fake clock's, so it wraps the fake.
    await page.clock.install();
    await page.addInitScript(() => {
      const set = window.setTimeout;
      const delays: number[] = [];
      Object.assign(window, { timerDelays: delays });
      window.setTimeout = ((handler: TimerHandler, delay?: number, ...rest: unknown[]) => {
        delays.push(delay ?? 0);
        return set(handler, delay, ...rest);
      }) as typeof window.setTimeout;
    });
    await hostJoins(page, request, '', { clockInstalled: true });
    // The next ping is set from the first one's answer: the clock may move on once the page has set it.
    const interval = ((await (await firstAnswer).json()) as { ping_interval_s: number }).ping_interval_s * 1000;
    expect(interval).toBe(5 * 60_000);
    await expect
      .poll(() =>
        page.evaluate((ms) => (window as unknown as { timerDelays: number[] }).timerDelays.includes(ms), interval),
      )
      .toBe(true);
    expect(pings).toHaveLength(1);
    await page.clock.fastForward('04:50');
    expect(pings).toHaveLength(1);
    await page.clock.fastForward('00:20');
    await expect.poll(() => pings.length).toBe(2);
    expect(pings).toEqual(['POST', 'POST']);
  });

  test('a rate limit and a network failure while asking for the token do not end the wait', async ({
    page,
    request,
  }) => {
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host);
    let n = 0;
    await page.route('**/api/v2/videoconference/token', async (route) => {
      n += 1;
      if (n === 1) return route.abort('failed');
      if (n === 2)
        return route.fulfill({
          status: 429,
          headers: { 'retry-after': '1' },
          json: { error_code: 'ERR_RATE_LIMITED', message: 'Too many attempts. Please wait and try again.' },
        });
      return route.continue();
    });
    await signIn(page, host, `/meet/${meeting._id}`);
    const room = new MeetingRoomPage(page);
    await room.joinFromSetup();
    await room.expectJoined();
    expect(n).toBe(3);
  });
});

test.describe('room page states', () => {
  test('camera or microphone that cannot be activated: the reload hint', async ({ page, request }) => {
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Could not start video source', 'NotReadableError'));
    });
    await hostOpens(page, request);
    await expect(page.getByText('Your microphone or camera could not be activated.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Join as spectator' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Join meeting' })).toHaveCount(0);
    await screenshots(page, 'activation-error');
  });

  test('a recorder error event opens the recorder dialog at once', async ({ page, request }) => {
    const { room } = await hostJoins(page, request, '?start_recording=true');
    await page.clock.fastForward(3500);
    await expect.poll(async () => (await room.commands('startRecording')).length).toBe(1);
    await room.emit('recordingStatusChanged', { on: false, mode: 'file', error: 'unexpected-request' });
    await expect(page.getByRole('dialog', { name: 'Could not start recording' })).toBeVisible();
    expect(await room.commands('startRecording')).toHaveLength(1);
  });

  test('desktop: an "open in the desktop app" link (jitsi-meet://), hidden by hideDesktopLink', async ({
    page,
    request,
  }) => {
    const { meeting } = await hostOpens(page, request);
    const link = page.getByRole('link', { name: 'Open in the desktop app instead' });
    await expect(link).toHaveAttribute('href', new RegExp(`^jitsi-meet://127\\.0\\.0\\.1:\\d+/${meeting._id}$`));
    await expect(page.getByLabel('Camera', { exact: true })).toBeVisible();
    await screenshots(page, 'setup');
    await page.goto(`/meet/${meeting._id}?hideDesktopLink=true`);
    await expect(page.getByRole('heading', { name: 'Ready to join?' })).toBeVisible();
    await expect(page.getByLabel('Camera', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Open in the desktop app instead' })).toHaveCount(0);
  });

  test('a stale guestId asks the guest for the name again, on the pre-join', async ({ page, request }) => {
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host);
    await page.goto('/supported-browser');
    await page.evaluate(() => localStorage.setItem('guestId', '0123456789abcdef01234567'));
    await page.goto(`/meet/${meeting._id}`);
    await new MeetingRoomPage(page).joinFromSetup();
    await expect(page.getByRole('heading', { name: 'Ready to join?' })).toBeVisible();
    await expect(page.locator('input[name=terms]')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('guestId'))).toBeNull();
    await fillGuestForm(page, 'Grace Guest');
    await page.getByRole('button', { name: 'Join meeting' }).click();
    await expect(page.getByRole('heading', { name: 'Waiting for the host' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('guestId'))).toMatch(/^[0-9a-f]{24}$/);
  });

  test('screens of entering, waiting and left', async ({ browser, request }) => {
    // Three browser contexts, the Jitsi stand-in and screenshots at two sizes: more than the default minute on a busy machine.
    test.slow();
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host, 'Design review');
    const guestPage = await (await browser.newContext()).newPage();
    await guestPage.goto(`/meet/${meeting._id}`);
    await fillGuestForm(guestPage, 'Grace Guest');
    await new MeetingRoomPage(guestPage).joinFromSetup();
    await expect(guestPage.getByRole('heading', { name: 'Waiting for the host' })).toBeVisible();
    await screenshots(guestPage, 'waiting');

    const page = await (await browser.newContext()).newPage();
    await signIn(page, host, `/meet/${meeting._id}`, () => page.clock.install());
    const room = new MeetingRoomPage(page);
    await expect(page.getByLabel('Camera', { exact: true })).toBeVisible();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.getByRole('button', { name: 'Join meeting' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Entering the meeting…' })).toBeVisible();
    await screenshots(page, 'entering');
    await page.clock.resume();
    await room.expectJoined();
    await screenshots(page, 'joined');
    await room.leaveButton().click();
    await expect(page.getByRole('heading', { name: "You've left the room" })).toBeVisible();
    await screenshots(page, 'left');
    await page.context().close();
    await guestPage.context().close();
  });
});
