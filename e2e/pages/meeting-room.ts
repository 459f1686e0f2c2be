import { expect, type APIRequestContext, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { createAccount, signInWithStorage, type Account } from '../fixtures/test';

export interface JitsiCall {
  type: 'constructor' | 'command' | 'event' | 'dispose' | 'ui';
  name?: string;
  domain?: string;
  args?: unknown[];
  payload?: unknown;
  options?: {
    roomName: string;
    jwt?: string;
    configOverwrite: Record<string, unknown>;
    interfaceConfigOverwrite: Record<string, unknown>;
    userInfo: { displayName?: string; email?: string };
    devices?: Record<string, string>;
  };
}

/** A video conference created through the API by `host` (the creator is the host). */
export async function createMeeting(
  request: APIRequestContext,
  host: Account,
  title = '',
): Promise<{ _id: string; link: string }> {
  const res = await request.post('/api/v2/videoconference', {
    headers: { authorization: `Bearer ${host.token}` },
    data: title ? { title } : {},
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { _id: string; link: string };
}

/** A host's meeting "Weekly sync" and a new browser of its own (its own cookies and storage) to open it in. */
export async function meetingAndNewBrowser(
  browser: Browser,
  request: APIRequestContext,
  options?: BrowserContextOptions,
): Promise<{ host: Account; meeting: { _id: string; link: string }; page: Page }> {
  const host = await createAccount(request);
  const meeting = await createMeeting(request, host, 'Weekly sync');
  const page = await (await browser.newContext(options)).newPage();
  return { host, meeting, page };
}

/** The meeting room page and what the Jitsi stand-in recorded of it (window.__jitsiCalls). */
export class MeetingRoomPage {
  constructor(readonly page: Page) {}

  calls(): Promise<JitsiCall[]> {
    return this.page.evaluate(() => (window as unknown as { __jitsiCalls?: JitsiCall[] }).__jitsiCalls ?? []);
  }
  async constructed(): Promise<JitsiCall> {
    await expect.poll(async () => (await this.calls()).some((c) => c.type === 'constructor')).toBe(true);
    return (await this.calls()).find((c) => c.type === 'constructor')!;
  }
  async commands(name: string): Promise<JitsiCall[]> {
    return (await this.calls()).filter((c) => c.type === 'command' && c.name === name);
  }
  async events(name: string): Promise<JitsiCall[]> {
    return (await this.calls()).filter((c) => c.type === 'event' && c.name === name);
  }
  /** The conference frame the stand-in embeds (room.html): its toolbar and hangup button are Jitsi's own. */
  frame() {
    return this.page.frameLocator('#jitsiConferenceFrame0');
  }
  emit(event: string, payload?: unknown): Promise<void> {
    return this.page.evaluate(
      ([e, p]) =>
        (window as unknown as { __jitsi: { emit(e: string, p: unknown): void } }).__jitsi.emit(e as string, p),
      [event, payload] as const,
    );
  }

  /** Device setup with Chromium's fake devices: wait for the lists, then join. */
  async joinFromSetup(options: { skipNextTime?: boolean } = {}): Promise<void> {
    await expect(this.page.getByRole('heading', { name: 'Ready to join?' })).toBeVisible();
    await expect(this.page.getByLabel('Camera', { exact: true })).toBeVisible();
    if (options.skipNextTime) await this.page.getByLabel('Skip this review next time').check();
    await this.page.getByRole('button', { name: 'Join meeting' }).click();
  }
  /** Our bar's Leave (one click), not the host's "Leave options" beside it. */
  leaveButton() {
    return this.page
      .getByRole('navigation', { name: 'Meeting controls' })
      .getByRole('button', { name: 'Leave', exact: true });
  }
  /** The host's menu behind the caret beside Leave: "End for everyone" lives there, nowhere else. */
  async openLeaveMenu() {
    await this.page.getByRole('button', { name: 'Leave options' }).click();
    return this.page.getByRole('menu', { name: 'Leave options' });
  }
  /**
   * On Playwright's clock: moves the page's time on until the room is joined, instead of waiting out the
   * spec's 2 s of "Entering the meeting…" (or a waiting guest's next ask, 5 s) in real time.
   */
  async enterWithoutWaiting(): Promise<void> {
    await expect(async () => {
      await this.page.clock.fastForward(500);
      await expect(this.page.getByTestId('jitsi-container').locator('iframe')).toBeVisible({ timeout: 250 });
    }).toPass({ timeout: 20_000 });
  }
  async expectJoined(): Promise<void> {
    await expect(this.page.getByTestId('jitsi-container').locator('iframe')).toBeVisible();
    await expect(this.leaveButton()).toBeVisible();
    await expect(this.page.getByText('Connecting to the meeting…')).toHaveCount(0);
  }
}

/** Signs in through local storage (fixtures/test.ts), then opens `path`. */
export const signIn = signInWithStorage;

/** A signed-in host on their own meeting's page (with `query`): the device setup. */
export async function hostOpens(page: Page, request: APIRequestContext, query = '', options: { clock?: boolean } = {}) {
  const host = await createAccount(request);
  const meeting = await createMeeting(request, host);
  await signIn(page, host, `/meet/${meeting._id}${query}`, options.clock ? () => page.clock.install() : undefined);
  return { host, meeting };
}

/**
 * A signed-in host on their own meeting's page (with `query`), past device setup and joined. The page runs
 * on Playwright's clock (installed here unless `clockInstalled`: the test did it already), which carries it
 * past the 2 s of "Entering the meeting…" (those are timed in meeting-jitsi.spec.ts).
 */
export async function hostJoins(
  page: Page,
  request: APIRequestContext,
  query = '',
  options: { clockInstalled?: boolean } = {},
) {
  const { host, meeting } = await hostOpens(page, request, query, { clock: !options.clockInstalled });
  const room = new MeetingRoomPage(page);
  await room.joinFromSetup();
  await room.enterWithoutWaiting();
  await room.expectJoined();
  return { host, meeting, room };
}

/** A new guest on a meeting's pre-join gives the name and accepts the terms there (created on Join). */
export async function fillGuestForm(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Ready to join?' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Your name' }).fill(name);
  await page.getByLabel(/I have read and accept/).check();
}
