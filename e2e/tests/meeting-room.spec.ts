import { test, expect, createAccount, screenshots, expectAccessible, type Account } from '../fixtures/test';
import { MeetingRoomPage, createMeeting, hostJoins, hostOpens, signIn } from '../pages/meeting-room';
import { boxOf } from '../pages/box';

const UA = {
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
  ios: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  oldFirefox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:60.0) Gecko/20100101 Firefox/60.0',
};

test.describe('recording auto-start', () => {
  test('starts 3 s after joining, retries once at 120 s, then shows the recorder error with Reload', async ({
    page,
    request,
  }) => {
    const { room } = await hostJoins(page, request, '?start_recording=true');
    await page.clock.fastForward(3500);
    await expect.poll(async () => (await room.commands('startRecording')).length).toBe(1);
    expect((await room.commands('startRecording'))[0]!.args).toEqual([{ mode: 'file' }]);
    await page.clock.fastForward('02:00');
    await expect.poll(async () => (await room.commands('startRecording')).length).toBe(2);
    await expect(page.getByRole('dialog', { name: 'Could not start recording' })).toHaveCount(0);
    await page.clock.fastForward('01:00');
    const dialog = page.getByRole('dialog', { name: 'Could not start recording' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Reload' })).toBeVisible();
    await screenshots(page, 'meeting-recording-error');
    expect((await room.commands('startRecording')).length).toBe(2);
  });

  test('a recordingStatusChanged event cancels the retry', async ({ page, request }) => {
    const { room } = await hostJoins(page, request, '?start_recording=true');
    await page.clock.fastForward(3500);
    await expect.poll(async () => (await room.commands('startRecording')).length).toBe(1);
    await room.emit('recordingStatusChanged', { on: true, mode: 'file', transcription: false });
    await page.clock.fastForward('05:00');
    expect((await room.commands('startRecording')).length).toBe(1);
    await expect(page.getByRole('dialog', { name: 'Could not start recording' })).toHaveCount(0);
  });

  test('does not record when file recording is disabled by the query', async ({ page, request }) => {
    const { room } = await hostJoins(page, request, '?start_recording=true&fileRecordingsEnabled=false');
    await page.clock.fastForward('02:10');
    expect(await room.commands('startRecording')).toEqual([]);
    expect((await room.constructed()).options?.configOverwrite.recordingService).toEqual({ enabled: false });
  });
});

test.describe('keep-alive', () => {
  test('asks after a while alone, counts down in seconds, and disconnects without an answer', async ({
    page,
    request,
  }) => {
    const { room } = await hostJoins(page, request, '');
    // Time stands still between the steps below: the seconds shown are the ones the test moved on.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await page.clock.fastForward('15:00');
    const prompt = page.getByRole('alertdialog', { name: 'Keep the meeting open?' });
    await expect(prompt).toBeVisible();
    // The safe choice has the focus: a reflexive Enter keeps the meeting, never leaves it.
    await expect(prompt.getByRole('button', { name: 'Keep it open' })).toBeFocused();
    const countdown = prompt.getByTestId('keep-alive-countdown');
    await expect(countdown).toHaveText('The meeting closes in 30 s');
    // The seconds are heard politely when the prompt opens, then at 20, 10 and 5 s: not every second.
    const spoken = prompt.locator('[aria-live="polite"]');
    await expect(spoken).toHaveText('The meeting closes in 30 s');
    await expect(prompt).toHaveAccessibleDescription(/Nobody else is here\..*The meeting closes in 30 s/);
    await page.clock.runFor(2000);
    await expect(countdown).toHaveText('The meeting closes in 28 s');
    await expect(spoken).toHaveText('The meeting closes in 30 s');
    await page.clock.runFor(8000);
    await expect(countdown).toHaveText('The meeting closes in 20 s');
    await expect(spoken).toHaveText('The meeting closes in 20 s');
    await page.clock.runFor(1000);
    await expect(countdown).toHaveText('The meeting closes in 19 s');
    await expect(spoken).toHaveText('The meeting closes in 20 s');
    // A ring shows the time left: 19 of 30 s.
    const ring = prompt.locator('svg.meet-ring .meet-ring__left');
    const [dash, offset] = await ring.evaluate((c) => [
      Number(c.getAttribute('stroke-dasharray')),
      Number(c.getAttribute('stroke-dashoffset')),
    ]);
    expect(1 - offset! / dash!).toBeCloseTo(19 / 30, 2);
    await expect(prompt.getByRole('button', { name: 'Keep it open' })).toBeFocused();
    // axe and the screenshots need time to flow.
    await page.clock.resume();
    await expectAccessible(page, 'keep-alive', ['[data-testid="jitsi-container"]']);
    await screenshots(page, 'meeting-keep-alive');
    await prompt.getByRole('button', { name: 'Keep it open' }).click();
    await expect(prompt).toBeHidden();
    expect(await room.commands('hangup')).toEqual([]);

    // Someone else in the room: no prompt.
    await room.emit('participantJoined', { id: 'p2', displayName: 'Bob' });
    await page.clock.fastForward('16:00');
    await expect(prompt).toBeHidden();
    await room.emit('participantLeft', { id: 'p2' });

    await page.clock.fastForward('15:00');
    await expect(prompt).toBeVisible();
    await page.clock.runFor(30_000);
    await expect(page.getByRole('heading', { name: "You've left the room" })).toBeVisible();
    await expect(page.getByText(/nobody answered/)).toBeVisible();
    expect(await room.commands('hangup')).toHaveLength(1);
  });
});

test.describe('loading the meeting script', () => {
  test('a failed external_api.js shows the warning dialog with Try again', async ({ page, request }) => {
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host);
    await page.route('**/external_api.js', (route) => route.abort());
    await signIn(page, host, `/meet/${meeting._id}`, () => page.clock.install());
    await new MeetingRoomPage(page).joinFromSetup();
    const dialog = page.getByRole('dialog', { name: 'Unable to load the meeting' });
    await expect(dialog).toBeVisible();
    await screenshots(page, 'meeting-load-error');
    await page.unroute('**/external_api.js');
    await dialog.getByRole('button', { name: 'Try again' }).click();
    const room = new MeetingRoomPage(page);
    await room.joinFromSetup();
    await room.enterWithoutWaiting();
    await room.expectJoined();
  });
});

test.describe('loading the meeting script (timeout)', () => {
  test('a script that never arrives also ends in the warning dialog', async ({ page, request }) => {
    const host = await createAccount(request);
    const meeting = await createMeeting(request, host);
    await page.route('**/external_api.js', () => undefined); // never answered
    await signIn(page, host, `/meet/${meeting._id}`, () => page.clock.install());
    await new MeetingRoomPage(page).joinFromSetup();
    await expect(new MeetingRoomPage(page).leaveButton()).toBeVisible(); // the room is up, the script pending
    await page.clock.fastForward('00:21');
    await expect(page.getByRole('dialog', { name: 'Unable to load the meeting' })).toBeVisible();
  });
});

test.describe('devices', () => {
  test('without media devices the user may join only as a spectator', async ({ page, request }) => {
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
      navigator.mediaDevices.enumerateDevices = () => Promise.resolve([]);
    });
    await hostOpens(page, request, '', { clock: true });
    await expect(page.getByText('No microphone or camera was found.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Join meeting' })).toHaveCount(0);
    await screenshots(page, 'meeting-spectator');
    await page.getByRole('button', { name: 'Join as spectator' }).click();
    const room = new MeetingRoomPage(page);
    await room.enterWithoutWaiting();
    await room.expectJoined();
    const init = await room.constructed();
    expect(init.options?.configOverwrite).toMatchObject({
      startWithAudioMuted: true,
      startWithVideoMuted: true,
      disableInitialGUM: true,
    });
    expect(init.options?.devices).toBeUndefined();
    // Nothing in Jitsi's toolbar needs a device either.
    const toolbar = init.options?.configOverwrite.toolbarButtons as string[];
    for (const b of ['microphone', 'camera', 'desktop', 'select-background']) expect(toolbar).not.toContain(b);
    expect(toolbar).toContain('tileview');
    await expect(page.getByRole('button', { name: 'Mute microphone' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Turn off camera' })).toHaveCount(0);
  });

  test('a refused permission says where to allow it again', async ({ page, request }) => {
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await hostOpens(page, request);
    await expect(page.getByText('Your browser is blocking the microphone and camera')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Join as spectator' })).toBeVisible();
  });

  test('the chosen devices go to Jitsi, and "skip this review next time" is remembered', async ({ page, request }) => {
    const { meeting } = await hostOpens(page, request, '', { clock: true });
    const room = new MeetingRoomPage(page);
    await expect(page.getByLabel('Camera', { exact: true })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Camera preview' }).or(page.getByLabel('Camera preview'))).toBeVisible();
    await screenshots(page, 'meeting-device-setup');
    await expectAccessible(page, 'device setup');
    const cameraLabel =
      (await page.getByLabel('Camera', { exact: true }).locator('option:checked').textContent()) ?? '';
    await room.joinFromSetup({ skipNextTime: true });
    await room.enterWithoutWaiting();
    await room.expectJoined();
    expect((await room.constructed()).options?.devices?.videoInput).toBe(cameraLabel);
    await page.goto(`/meet/${meeting._id}`);
    await expect(page.getByRole('heading', { name: 'Ready to join?' })).toHaveCount(0);
    await room.enterWithoutWaiting();
    await room.expectJoined();
    expect((await room.constructed()).options?.devices?.videoInput).toBe(cameraLabel);
  });
});

test.describe('the room page', () => {
  test('fills the window with no page scroll, at 1280×800 and at 360×740', async ({ page, request }) => {
    await hostJoins(page, request);
    const overflow = () =>
      page.evaluate(() => document.scrollingElement!.scrollHeight - document.scrollingElement!.clientHeight);
    expect(await overflow()).toBe(0);
    await page.setViewportSize({ width: 360, height: 740 });
    await expect.poll(overflow).toBe(0);
  });
});

test.describe('app offer on mobile', () => {
  test.use({ userAgent: UA.android, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test('Android: open in the app (intent link), Google Play, or continue in the browser', async ({ page, request }) => {
    const { meeting } = await hostOpens(page, request);
    await expect(page.getByRole('heading', { name: 'Join with the app' })).toBeVisible();
    const open = page.getByRole('link', { name: 'Open in the app' });
    await expect(open).toHaveAttribute(
      'href',
      new RegExp(
        `^intent://127\\.0\\.0\\.1:\\d+/${meeting._id}#Intent;scheme=org\\.jitsi\\.meet;package=org\\.jitsi\\.meet;`,
      ),
    );
    await expect(page.getByRole('link', { name: 'Get it on Google Play' })).toHaveAttribute(
      'href',
      /play\.google\.com.*id=org\.jitsi\.meet/,
    );
    await expect(page.getByRole('link', { name: 'Download on the App Store' })).toHaveCount(0);
    // The offer names our product (APP_TITLE), not Jitsi's.
    await expect(page.getByText('open the meeting in the Suite app')).toBeVisible();
    await screenshots(page, 'meeting-app-offer');
    await expectAccessible(page, 'app offer');
    await page.getByRole('button', { name: 'Continue in the browser' }).click();
    await expect(page.getByRole('heading', { name: 'Ready to join?' })).toBeVisible();
  });
});

test.describe('app offer on iPhone', () => {
  test.use({ userAgent: UA.ios, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test('iOS: the org.jitsi.meet:// scheme and the App Store', async ({ page, request }) => {
    const { meeting } = await hostOpens(page, request);
    await expect(page.getByRole('link', { name: 'Open in the app' })).toHaveAttribute(
      'href',
      new RegExp(`^org\\.jitsi\\.meet://127\\.0\\.0\\.1:\\d+/${meeting._id}$`),
    );
    await expect(page.getByRole('link', { name: 'Download on the App Store' })).toHaveAttribute(
      'href',
      /apps\.apple\.com/,
    );
  });
});

test.describe('query parameters', () => {
  test('a javascript: avatar and logo are refused; names stay text', async ({ page, request }) => {
    const name = '<img src=x onerror=alert(1)>';
    const { room } = await hostJoins(
      page,
      request,
      `?avatar=${encodeURIComponent('javascript:alert(1)')}&DEFAULT_LOGO_URL=${encodeURIComponent('javascript:alert(2)')}&first_name=${encodeURIComponent(name)}&last_name=Doe`,
    );
    expect(await room.commands('avatarUrl')).toEqual([]);
    expect((await room.constructed()).options?.userInfo.displayName).toBe(`${name} Doe`);
    await expect(page.getByRole('banner').getByRole('img', { name: 'Suite' })).toBeVisible();
    await expect(page.locator('img[src^="javascript"]')).toHaveCount(0);
  });

  test('an https avatar is passed to Jitsi after joining', async ({ page, request }) => {
    const { room } = await hostJoins(
      page,
      request,
      `?avatar=${encodeURIComponent('https://cdn.example.com/a.png')}&email=ana%40acme.test`,
    );
    await expect
      .poll(async () => (await room.commands('avatarUrl')).map((c) => c.args))
      .toEqual([['https://cdn.example.com/a.png']]);
    expect((await room.constructed()).options?.userInfo.email).toBe('ana@acme.test');
  });

  test('an https DEFAULT_LOGO_URL goes to Jitsi; our bar shows it only from our origin or the meeting domain', async ({
    page,
    request,
  }) => {
    // A foreign logo: Jitsi gets it, our bar keeps its own logo and fetches nothing from that host
    // (the fixture fails the test on any outside request or CSP violation).
    const logo = 'https://cdn.example.com/logo.svg';
    const { room } = await hostJoins(page, request, `?DEFAULT_LOGO_URL=${encodeURIComponent(logo)}`);
    expect((await room.constructed()).options?.configOverwrite.defaultLogoUrl).toBe(logo);
    await expect(page.locator('img.meet-bar__logo-img')).toHaveCount(0);

    const own = new URL('/favicon.svg', page.url()).toString();
    await hostJoins(page, request, `?DEFAULT_LOGO_URL=${encodeURIComponent(own)}`);
    await expect(page.locator('img.meet-bar__logo-img')).toHaveAttribute('src', own);
    expect(
      await page.locator('img.meet-bar__logo-img').evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);
  });

  test('interface and meeting options map to Jitsi, hideButtons filters the 26-button toolbar', async ({
    page,
    request,
  }) => {
    const query = new URLSearchParams({
      hideButtons: 'chat,microphone,recording',
      startWithAudioMuted: 'true',
      startWithVideoMuted: 'false',
      liveStreamingEnabled: 'false',
      startScreenSharing: 'true',
      hideParticipantsStats: 'true',
      enableScreenshotCapture: 'true',
      channelLastN: '4',
      disableInviteFunctions: 'true',
      prejoinPageEnabled: 'false',
      hideLogo: 'true',
      hideDesktopLink: 'true',
      DISABLE_VIDEO_BACKGROUND: 'true',
      DISABLE_JOIN_LEAVE_NOTIFICATIONS: 'true',
      TOOLBAR_ALWAYS_VISIBLE: 'true',
      APP_NAME: 'Acme Meet',
      SUPPORT_URL: 'https://help.acme.example/meet',
    });
    const { room, meeting } = await hostJoins(page, request, `?${query}`);
    const { configOverwrite: c, interfaceConfigOverwrite: ui } = (await room.constructed()).options!;
    const toolbar = c.toolbarButtons as string[];
    // 26 minus the 3 hidden, minus what our bar shows instead (camera, desktop, invite, hangup, and help
    // for the SUPPORT_URL link): one set of controls.
    expect(toolbar).toHaveLength(18);
    for (const b of ['chat', 'camera', 'desktop', 'invite', 'hangup', 'help']) expect(toolbar).not.toContain(b);
    expect(toolbar).toEqual(expect.arrayContaining(['settings', 'tileview', 'whiteboard']));
    expect(c).toMatchObject({
      startWithAudioMuted: true,
      startWithVideoMuted: false,
      liveStreaming: { enabled: false },
      startScreenSharing: true,
      hideParticipantsStats: true,
      screenshotCapture: { enabled: true },
      channelLastN: 4,
      disableInviteFunctions: true,
      prejoinConfig: { enabled: false },
      deeplinking: { disabled: true, desktop: { enabled: false } },
      toolbarConfig: { alwaysVisible: true },
      disableJoinLeaveSounds: true,
    });
    expect(c).not.toHaveProperty('disableDeepLinking');
    expect(ui).toMatchObject({
      DISABLE_VIDEO_BACKGROUND: true,
      DISABLE_JOIN_LEAVE_NOTIFICATIONS: true,
      TOOLBAR_ALWAYS_VISIBLE: true,
    });
    // What our page applies itself: no microphone control (hidden button), no logo, app name, support link, no invite.
    const bar = page.getByRole('banner');
    await expect(bar.getByRole('button', { name: 'Mute microphone' })).toHaveCount(0);
    await expect(bar.getByRole('button', { name: 'Turn off camera' })).toBeVisible();
    await expect(bar.getByRole('img')).toHaveCount(0);
    // Untitled: called after its host, never by its id.
    await expect(bar.getByText("Ada's meeting")).toBeVisible();
    await expect(bar.getByText(meeting._id)).toHaveCount(0);
    await expect(bar.getByRole('link', { name: 'Support' })).toHaveAttribute('href', 'https://help.acme.example/meet');
    await expect(bar.getByRole('button', { name: 'Copy invite link' })).toHaveCount(0);
    await expect(page).toHaveTitle("Ada's meeting · Acme Meet");
  });
});

test.describe('room page notices', () => {
  test('blocked local storage shows the third-party-cookie notice and its help page', async ({ page }) => {
    await page.addInitScript(() => {
      Storage.prototype.setItem = () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      };
    });
    await page.goto('/meet/abc-defg-hij');
    await expect(page.getByRole('heading', { name: 'Third-party cookies must be enabled' })).toBeVisible();
    await screenshots(page, 'meeting-cookies');
    await expectAccessible(page, 'cookie notice');
    await page.getByRole('link', { name: 'How to enable third-party cookies' }).click();
    await expect(page.getByRole('heading', { name: 'Enable third-party cookies' })).toBeVisible();
    await expect(page.getByText('Google Chrome')).toBeVisible();
    await screenshots(page, 'meeting-cookies-help');
  });

  test('no meeting domain configured: a clear message', async ({ page }) => {
    // The deployment's runtime settings as a server without MEET_DOMAIN gives them.
    await page.route('**/api/config', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), meetDomain: null } });
    });
    await page.goto('/meet/abc-defg-hij');
    await expect(page.getByRole('heading', { name: 'Meetings are not available' })).toBeVisible();
    await screenshots(page, 'meeting-not-configured');
  });

  test.describe('unsupported browser', () => {
    test.use({ userAgent: UA.oldFirefox });
    test('shows the unsupported-browser message (MSG_HOMOLOGATED_BROWSER)', async ({ page }) => {
      await page.goto('/meet/abc-defg-hij');
      await expect(page.getByRole('heading', { name: 'Browser not supported' })).toBeVisible();
      await expect(
        page.getByTestId('meeting-unsupported').getByText(/Your browser is not supported\. For the best experience/),
      ).toBeVisible();
      await expect(page.getByRole('contentinfo').getByRole('combobox')).toBeVisible();
      await screenshots(page, 'meeting-unsupported');
    });
  });

  test('unknown and malformed meeting links', async ({ page, request }) => {
    await page.goto('/meet/zzz-zzzz-zzz');
    await expect(page.getByRole('heading', { name: 'Video conference not found' })).toBeVisible();
    // A dead end keeps the frame: its footer, and the language switch that works there.
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await page.getByRole('contentinfo').getByRole('combobox').selectOption('pt');
    await expect(page.getByRole('heading', { name: 'Video conference not found' })).toHaveCount(0);
    await page.getByRole('contentinfo').getByRole('combobox').selectOption('en');
    await expect(page.getByRole('heading', { name: 'Video conference not found' })).toBeVisible();
    await screenshots(page, 'meeting-not-found');
    // A frame page like the others: its card where theirs is, the label over the field from one left edge,
    // joining the main action and home a quiet link.
    await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
    const notFoundCard = await boxOf(page.getByTestId('meeting-error'));
    const label = await boxOf(page.getByRole('heading', { name: 'Join with a code or link' }));
    const title = await boxOf(page.getByRole('heading', { name: 'Video conference not found' }));
    // The field's pill (its input sits inside it, after the padding).
    const field = await page
      .getByRole('textbox', { name: 'Meeting code or link' })
      .evaluate((el) => el.closest('.field')!.getBoundingClientRect().x);
    const home = await boxOf(page.getByRole('link', { name: 'Go to the home page' }));
    for (const x of [label.x, field, home.x]) expect(Math.abs(x - title.x)).toBeLessThanOrEqual(2);
    await expect(page.getByRole('button', { name: 'Join', exact: true })).toHaveClass(/btn--primary/);
    await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveClass(/btn--link/);
    await page.goto('/supported-browser');
    await expect(page.getByTestId('supported-browser')).toBeVisible();
    const frameCard = await boxOf(page.getByTestId('supported-browser'));
    expect(Math.abs(notFoundCard.y - frameCard.y)).toBeLessThanOrEqual(2);
    await page.goto('/meet/zzz-zzzz-zzz');
    await expect(page.getByRole('heading', { name: 'Video conference not found' })).toBeVisible();
    // On a phone the field and its button stay inside the card.
    await page.setViewportSize({ width: 360, height: 740 });
    const card = await page.getByTestId('meeting-error').boundingBox();
    for (const part of [
      page.getByRole('textbox', { name: 'Meeting code or link' }),
      page.getByRole('button', { name: 'Join', exact: true }),
    ]) {
      const box = await boxOf(part);
      expect(box.x).toBeGreaterThanOrEqual(card!.x);
      expect(box.x + box.width).toBeLessThanOrEqual(card!.x + card!.width);
    }
    // As on /guest: the card's inner padding, and Join a full-width pill under the field.
    const inner = (selector: string) =>
      page.locator(selector).evaluate((el) => getComputedStyle(el).paddingInlineStart);
    const notFoundPadding = await inner('[data-testid=meeting-error]');
    // The field's pill (its input sits inside it, after the padding).
    const pill = await page.getByRole('textbox', { name: 'Meeting code or link' }).evaluate((el) => {
      const box = el.closest('.field__control')!.getBoundingClientRect();
      return { x: box.x, width: box.width };
    });
    const join = await boxOf(page.getByRole('button', { name: 'Join', exact: true }));
    expect(Math.abs(join.x - pill.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(join.width - pill.width)).toBeLessThanOrEqual(1);
    await page.goto('/guest');
    await expect(page.getByTestId('guest-no-meeting')).toBeVisible();
    expect(notFoundPadding).toBe(await inner('[data-testid=guest-no-meeting]'));
    await page.goto('/meet/zzz-zzzz-zzz');
    await expect(page.getByRole('heading', { name: 'Video conference not found' })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });
    // The right link pasted on the spot opens that meeting.
    const meeting = await createMeeting(request, await createAccount(request), 'Pasted');
    await page.getByRole('textbox', { name: 'Meeting code or link' }).fill(`https://example.test/meet/${meeting._id}`);
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/meet/${meeting._id}|/guest\\?`));
    await expect(page.getByRole('heading', { name: 'Video conference not found' })).toHaveCount(0);
    await page.goto('/meet/not%20a%20room!');
    await expect(page.getByRole('heading', { name: 'Invite is not valid' })).toBeVisible();
  });
});

export type { Account };
