import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Account } from '../fixtures/test';

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
  /** The conference frame the stand-in embeds (room.html): its hangup button is Jitsi's own. */
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
    await expect(this.page.getByRole('heading', { name: 'Check your audio and video' })).toBeVisible();
    await expect(this.page.getByLabel('Camera', { exact: true })).toBeVisible();
    if (options.skipNextTime) await this.page.getByLabel('Skip this review next time').check();
    await this.page.getByRole('button', { name: 'Join meeting' }).click();
  }
  async expectJoined(): Promise<void> {
    await expect(this.page.getByTestId('jitsi-container').locator('iframe')).toBeVisible();
    await expect(this.page.getByRole('button', { name: 'Leave' })).toBeVisible();
    await expect(this.page.getByText('Connecting to the meeting…')).toHaveCount(0);
  }
}

/**
 * Stores a session the way the login screen does, on a static page first (no /clear effect that could
 * race the writes), then opens `path`.
 */
export async function signIn(
  page: Page,
  account: Account,
  path: string,
  beforeOpen?: () => Promise<void>,
): Promise<void> {
  const login = await page.request.post('/api/auth/login', {
    data: { login: account.email, password: account.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  const session = (await login.json()) as { token: string; profiles: { info: Record<string, unknown> }[] };
  await page.goto('/supported-browser');
  await page.evaluate((s) => {
    const payload = JSON.parse(atob(s.token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as {
      user: { email: string; preferences: unknown };
    };
    localStorage.clear();
    localStorage.setItem('authorization', s.token);
    localStorage.setItem('user', JSON.stringify(payload.user));
    localStorage.setItem('preferences', JSON.stringify(payload.user.preferences ?? {}));
    localStorage.setItem('profiles', JSON.stringify(s.profiles));
    const first = s.profiles[0];
    if (first)
      localStorage.setItem(
        'acting_profile',
        JSON.stringify({ ...first, info: { ...first.info, email: payload.user.email } }),
      );
  }, session);
  await beforeOpen?.();
  await page.goto(path);
}

/** Registers a guest through /guest the way a person would. */
export async function fillGuestForm(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Join as a guest' })).toBeVisible();
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel(/I have read and accept/).check();
  await page.getByRole('button', { name: 'Continue' }).click();
}
