import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { IncomingMessage } from 'node:http';
import { fakeSessionToken, renderScreen, serveApi, type Answer } from '../components/testing';
import { loadTexts } from '../lib/i18n';
import HomePage from './home-page';

let tokens = 0;
let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  localStorage.clear();
});

/** Everything the sections ask answers 404 (they show their own errors), unless `answer` says otherwise. */
async function open(url: string, answer: (req: IncomingMessage) => Answer | undefined = () => undefined) {
  // A token of its own per test: the home asks once per token whether this person administers a domain.
  tokens += 1;
  const user = { _id: `u${tokens}`, email: 'ada@contoso.com', preferences: {}, profile_id: 'p1' };
  localStorage.setItem('authorization', fakeSessionToken(user));
  localStorage.setItem('user', JSON.stringify({ _id: 'u1', email: 'ada@contoso.com' }));
  localStorage.setItem(
    'acting_profile',
    JSON.stringify({ _id: 'p1', info: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@contoso.com' } }),
  );
  server = await serveApi((req) => answer(req) ?? { status: 404, body: { error_code: 'ERR_NOT_FOUND' } });
  const router = await renderScreen(<HomePage />, { url, path: '/app/:section?' });
  await loadTexts('en', 'home');
  await screen.findByRole('navigation', { name: 'Sections' });
  return { router, server };
}
const nav = () => screen.getByRole('navigation', { name: 'Sections' });
/** A section link's name (the phone bar's short caption beside it is hidden from assistive tech). */
const label = (link: HTMLElement) => link.querySelector('.home-nav__label')?.textContent;
const current = () =>
  within(nav())
    .getAllByRole('link')
    .filter((a) => a.getAttribute('aria-current') === 'page');

describe('signed-in home: sections', () => {
  it('a deep link opens its section, the header and navigation at once; /app is Meetings', async () => {
    await open('/app/security');
    const links = within(nav()).getAllByRole('link');
    expect(links.map((a) => [label(a), a.getAttribute('href')])).toEqual([
      ['Meetings', '/app/meetings'],
      ['Files', '/app/files'],
      ['Security', '/app/security'],
      ['Sessions', '/app/sessions'],
    ]);
    expect(current().map(label)).toEqual(['Security']);
    expect(screen.getByRole('heading', { level: 1, name: 'Security' })).toBeVisible();
    await waitFor(() => expect(document.title).toMatch(/^Security · Home/));
    expect(screen.getByRole('button', { name: 'Account menu for Ada Lovelace' })).toBeVisible();
  });

  it('one section at a time; a click moves the address, the mark and the focus; back returns', async () => {
    const { router } = await open('/app');
    expect(current().map(label)).toEqual(['Meetings']);
    expect(screen.getByRole('heading', { level: 1, name: 'Hello, Ada Lovelace' })).toBeVisible();
    fireEvent.click(within(nav()).getByRole('link', { name: 'Sessions' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/sessions'));
    expect(current().map(label)).toEqual(['Sessions']);
    const heading = screen.getByRole('heading', { level: 1, name: 'Sessions' });
    expect(document.activeElement).toBe(heading);
    expect(document.querySelector('[data-section]')?.getAttribute('data-section')).toBe('sessions');
    act(() => window.history.back());
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
    await waitFor(() => expect(current().map(label)).toEqual(['Meetings']));
  });

  it('Administration shows only for a domain administrator, after the others', async () => {
    await open('/app/files', (req) =>
      req.url === '/api/admin/me'
        ? { status: 200, body: { domains: [{ domain: 'contoso.com', via: 'dns' }] } }
        : undefined,
    );
    const admin = await within(nav()).findByRole('link', { name: 'Administration' });
    expect(admin.getAttribute('href')).toBe('/app/admin');
    expect(within(nav()).getAllByRole('link').at(-1)).toBe(admin);
  });
});

describe('signed-in home: the way into administration', () => {
  it('is the Administration entry for a person of a company domain nobody administers: it opens the DNS proof', async () => {
    await open('/app', (req) =>
      req.url === '/api/admin/claim'
        ? {
            status: 200,
            body: {
              domain: 'contoso.com',
              record_name: '_suite-challenge.contoso.com',
              record_type: 'TXT',
              record_value: 'v',
              admin: false,
            },
          }
        : undefined,
    );
    const entry = await within(nav()).findByRole('link', { name: 'Administration' });
    expect(entry.getAttribute('href')).toBe('/app/admin/prove-domain');
    // Not a card in the Meetings section any more.
    expect(screen.queryByText('Set up administration')).toBeNull();
  });

  it('is not there for a free-mail address', async () => {
    const { server } = await open('/app', (req) =>
      req.url === '/api/admin/claim'
        ? { status: 403, body: { error_code: 'ERR_CLAIM_NOT_ALLOWED', message: 'no' } }
        : undefined,
    );
    await waitFor(() => expect(server.requests.map((r) => r.url)).toContain('/api/admin/claim'));
    await act(async () => {});
    expect(within(nav()).queryByRole('link', { name: 'Administration' })).toBeNull();
  });
});

describe('signed-in home: account menu', () => {
  it('is a menu button: arrows open and move, Escape closes and gives the focus back', async () => {
    await open('/app/files');
    const button = screen.getByRole('button', { name: 'Account menu for Ada Lovelace' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const menu = screen.getByRole('menu', { name: 'Account menu for Ada Lovelace' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe(menu.id);
    // Who is signed in shows above the items.
    expect(within(menu.parentElement!).getByText('Ada Lovelace')).toBeVisible();
    expect(within(menu.parentElement!).getByTestId('address')).toHaveTextContent(/^ada@contoso\.com$/);
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Sign out', 'Sign out of all devices']);
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(items[1]));
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    fireEvent.keyDown(menu, { key: 'End' });
    await waitFor(() => expect(document.activeElement).toBe(items[1]));
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('Sign out ends the session on the server and here, and shows the login', async () => {
    const { router, server } = await open('/app/files', (req) =>
      req.url === '/api/auth/logout' ? { status: 200, body: { logout_url: null } } : undefined,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Account menu for Ada Lovelace' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(server.requests.some((r) => r.method === 'POST' && r.url === '/api/auth/logout')).toBe(true);
    expect(localStorage.getItem('authorization')).toBeNull();
  });

  it('Sign out of all devices asks first, naming what goes, then ends every session', async () => {
    const { router, server } = await open('/app/files', (req) =>
      req.url === '/api/auth/logout-all' ? { status: 200, body: { logout_url: null } } : undefined,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Account menu for Ada Lovelace' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Sign out of all devices' }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 5000 });
    expect(within(dialog).getByText(/Every device signed in to your account, this one included/)).toBeVisible();
    expect(server.requests.some((r) => r.url === '/api/auth/logout-all')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(server.requests.filter((r) => r.url === '/api/auth/logout-all')).toHaveLength(1);
    expect(localStorage.getItem('authorization')).toBeNull();
  });
});
