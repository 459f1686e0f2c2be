import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { IncomingMessage } from 'node:http';
import { fakeSessionToken, renderScreen, serveApiForTest, type Answer } from '../../../components/testing';
import { loadTexts } from '../../../lib/i18n';
import { SessionsPanel } from './sessions-panel';

const UA = {
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
};
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
/** As the server lists them: most recently seen first (here another device before this one). */
const SESSIONS = [
  { _id: 'aaa111', device: UA.iphone, created_at: minutesAgo(600), last_seen_at: minutesAgo(0), current: false },
  { _id: 'bbb222', device: UA.linux, created_at: minutesAgo(60), last_seen_at: minutesAgo(5), current: true },
  { _id: 'ccc333', device: null, created_at: minutesAgo(3000), last_seen_at: minutesAgo(26 * 60), current: false },
];
const list: Answer = { status: 200, body: { data: SESSIONS } };

async function open(answer: (req: IncomingMessage) => Answer) {
  localStorage.setItem('authorization', fakeSessionToken());
  const server = await serveApiForTest(answer);
  const router = await renderScreen(<SessionsPanel />, { url: '/app', path: '/app' });
  return { router, server };
}
const rows = () => within(screen.getByRole('list', { name: 'Active sessions' })).getAllByRole('listitem');

describe('active sessions on the signed-in home', () => {
  it('lists every device by name with its last activity, this one first and marked, sign-out on the others', async () => {
    const { server } = await open(() => list);
    await screen.findByRole('list', { name: 'Active sessions' });
    expect(rows().map((r) => within(r).getByRole('heading').textContent)).toEqual([
      'Chrome 131 on Linux',
      'Safari 17 on iPhone',
      'Other app',
    ]);
    const [mine, iphone, unknown] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(mine).getByText('This device')).toBeVisible();
    expect(within(mine).getByText('Last active 5 minutes ago')).toBeVisible();
    // When it signed in, as a date in the UI language: two sessions of one browser are told apart.
    const signedIn = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
    expect(within(mine).getByText(`Signed in ${signedIn.format(new Date(SESSIONS[1]!.created_at))}`)).toBeVisible();
    expect(within(mine).queryByRole('button')).toBeNull();
    expect(within(iphone).getByText('Last active now')).toBeVisible();
    expect(within(iphone).getByRole('button', { name: 'Sign out of Safari 17 on iPhone' }).textContent).toBe(
      'Sign out',
    );
    expect(within(unknown).getByText('Last active yesterday')).toBeVisible();
    expect(within(unknown).queryByText('This device')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign out of all devices' })).toBeVisible();
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/v2/user/sessions']);
    expect(server.requests[0]?.authorization).toMatch(/^Bearer /);
  });

  it('alone on this device: says so and offers no "Sign out of all devices"', async () => {
    await open(() => ({ status: 200, body: { data: [SESSIONS[1]] } }));
    expect(await screen.findByText('No other device is signed in.')).toBeVisible();
    expect(rows()).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Sign out of all devices' })).toBeNull();
  });

  it('signs another device out: busy while asked, a second click sends nothing more', async () => {
    // The DELETE is never answered: the button stays busy.
    const { server } = await open((req) => (req.method === 'DELETE' ? { status: 200, hang: true } : list));
    const button = await screen.findByRole('button', { name: 'Sign out of Safari 17 on iPhone' });
    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(server.requests.some((r) => r.method === 'DELETE')).toBe(true));
    fireEvent.click(button);
    expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      '/api/v2/user/sessions/aaa111',
    ]);
    expect(rows()).toHaveLength(3);
  });

  it('after a sign-out the list keeps the rest, says so in the live region, and keeps focus in the panel', async () => {
    const { server } = await open((req) => (req.method === 'DELETE' ? { status: 200, body: { ok: true } } : list));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of Safari 17 on iPhone' }));
    expect(await screen.findByText('Safari 17 on iPhone has been signed out.')).toBeVisible();
    expect(screen.getByRole('status').textContent).toBe('Safari 17 on iPhone has been signed out.');
    expect(rows().map((r) => within(r).getByRole('heading').textContent)).toEqual(['Chrome 131 on Linux', 'Other app']);
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Active sessions' }));
    const del = server.requests.find((r) => r.method === 'DELETE');
    expect(del?.url).toBe('/api/v2/user/sessions/aaa111');
    expect(del?.authorization).toMatch(/^Bearer /);
  });

  it('a failed sign-out shows the catalogue text on that row and keeps it', async () => {
    await loadTexts('en', 'errors');
    await open((req) =>
      req.method === 'DELETE' ? { status: 503, body: { error_code: 'ERR_SERVICE_UNAVAILABLE', message: 'x' } } : list,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of Safari 17 on iPhone' }));
    const iphone = rows()[1]!;
    expect((await within(iphone).findByRole('alert')).textContent).toBe('Could not connect to the server.');
    expect(rows()).toHaveLength(3);
    expect(within(iphone).getByRole('button', { name: 'Sign out of Safari 17 on iPhone' })).toHaveProperty(
      'disabled',
      false,
    );
  });

  it('a session that had already ended is simply gone', async () => {
    await open((req) =>
      req.method === 'DELETE' ? { status: 404, body: { error_code: 'ERR_NOT_FOUND', message: 'Not found.' } } : list,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of Safari 17 on iPhone' }));
    expect(await screen.findByText('Safari 17 on iPhone has been signed out.')).toBeVisible();
    expect(rows()).toHaveLength(2);
  });

  it('when this device was signed out from another one, the next call clears the session and opens login', async () => {
    const { router } = await open(() => ({
      status: 401,
      body: { error_code: 'ERR_INVALID_ACCESS_TOKEN', message: 'Invalid access token' },
    }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(localStorage.getItem('authorization')).toBeNull();
  });

  it('a list that cannot be loaded says why and offers to try again', async () => {
    await loadTexts('en', 'errors');
    let calls = 0;
    await open(() =>
      ++calls === 1 ? { status: 503, body: { error_code: 'ERR_SERVICE_UNAVAILABLE', message: 'x' } } : list,
    );
    expect((await screen.findByRole('alert')).textContent).toBe('Could not connect to the server.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Active sessions' })).toBeVisible();
    expect(rows()).toHaveLength(3);
  });

  it('"sign out of all devices" asks first; confirmed, it ends them all, clears this one and opens login', async () => {
    const { router, server } = await open((req) =>
      req.method === 'POST' ? { status: 200, body: { ok: true } } : list,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of all devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out of all devices?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Sign out of all devices' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Sign out of all devices?' })).getByRole('button', {
        name: 'Sign out everywhere',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(localStorage.getItem('authorization')).toBeNull();
    const post = server.requests.find((r) => r.method === 'POST');
    expect(post?.url).toBe('/api/auth/logout-all');
    expect(post?.authorization).toMatch(/^Bearer /);
  });

  it('a failed "sign out of all devices" says why and keeps this device signed in', async () => {
    await loadTexts('en', 'errors');
    const { router } = await open((req) =>
      req.method === 'POST' ? { status: 503, body: { error_code: 'ERR_SERVICE_UNAVAILABLE', message: 'x' } } : list,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of all devices' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out everywhere' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not connect to the server.');
    expect(router.state.location.pathname).toBe('/app');
    expect(localStorage.getItem('authorization')).not.toBeNull();
  });
});
