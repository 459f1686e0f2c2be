import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderScreen, serveApi, expectOneRequestForRepeatedSubmits, sentence } from '../../components/testing';
import { loadTexts } from '../../lib/i18n';
import LoginForm from './login-form';

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  // The typed address is carried in the tab's session storage: each test starts on a fresh tab.
  window.sessionStorage.clear();
});

async function logIn() {
  fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'ada@contoso.com' } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'secret-1' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('login screen', () => {
  it('says it could not connect when nothing answers', async () => {
    server = await serveApi(() => ({ status: 200 }));
    await server.close(); // the page's origin now points at a closed port
    server = null;
    await renderScreen(<LoginForm />, { url: '/user/login' });
    await logIn();
    expect(await screen.findByText(/Could not connect to the server/)).toBeVisible();
  });

  it('requires both fields before calling, each message naming its field', async () => {
    server = await serveApi(() => ({ status: 200 }));
    await renderScreen(<LoginForm />, { url: '/user/login' });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your email address.')).toBeVisible();
    expect(screen.getByText('Enter your password.')).toBeVisible();
    expect(server.requests).toHaveLength(0);
  });

  it('offers only single sign-on once the server says the domain signs in that way', async () => {
    server = await serveApi(() => ({ status: 403, body: { error_code: 'ERR_SSO_LOGIN_ONLY', message: 'x' } }));
    await renderScreen(<LoginForm />, { url: '/user/login' });
    await logIn();
    const link = await screen.findByRole('link', { name: 'Continue with single sign\u2011on' });
    expect(link.getAttribute('href')).toBe('/api/sso/start?email=ada%40contoso.com');
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
  });

  it('makes single sign-on the one primary action once the typed domain has it, the password a quiet link', async () => {
    server = await serveApi((req) =>
      req.url?.includes('/sso/discover') ? { status: 200, body: { sso: 'available' } } : { status: 500 },
    );
    await renderScreen(<LoginForm />, { url: '/user/login' });
    expect(screen.getByText('Sign in with your email and password.')).toBeVisible();
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'ada@contoso.com' } });
    const link = await screen.findByRole('link', { name: 'Continue with single sign\u2011on' });
    expect(link.className).toContain('btn--primary');
    // The lead follows the state: no promise of a password on this domain.
    expect(screen.getByText(sentence('Your organization (contoso.com) uses single sign\u2011on.'))).toBeVisible();
    expect(screen.queryByText('Sign in with your email and password.')).toBeNull();
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Use my password instead' }));
    expect(await screen.findByLabelText(/^Password/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeVisible();
    // The password is asked now: the lead says so, no longer single sign-on.
    expect(screen.getByText('Sign in with your email and password.')).toBeVisible();
    expect(screen.queryByText(sentence('Your organization (contoso.com) uses single sign\u2011on.'))).toBeNull();
    expect(screen.getByRole('link', { name: 'Continue with single sign\u2011on instead' }).className).not.toContain(
      'btn',
    );
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/sso/discover']);
  });

  it('shows no password field at all on a domain that signs in with single sign-on only', async () => {
    server = await serveApi((req) =>
      req.url?.includes('/sso/discover') ? { status: 200, body: { sso: 'required' } } : { status: 500 },
    );
    await renderScreen(<LoginForm />, { url: '/user/login' });
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'ada@acme.com' } });
    expect(await screen.findByRole('link', { name: 'Continue with single sign\u2011on' })).toBeVisible();
    expect(screen.getByText(sentence('Your organization (acme.com) uses single sign\u2011on.'))).toBeVisible();
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Use my password instead' })).toBeNull();
  });

  it('keeps one primary button: the passkey is a quiet link, the e-mail field offers passkeys in autofill', async () => {
    server = await serveApi(() => ({ status: 200 }));
    await renderScreen(<LoginForm />, { url: '/user/login' });
    expect(await screen.findByLabelText(/Email/)).toHaveAttribute('autocomplete', 'username webauthn');
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' }).className).toContain('btn--link');
    const primaries = document.querySelectorAll('.btn--primary');
    expect([...primaries].map((b) => b.textContent)).toEqual(['Sign in']);
  });

  it('takes the address typed on another entry form, and carries what is typed here on', async () => {
    window.sessionStorage.setItem('carriedAddress', 'ada@contoso.com');
    server = await serveApi(() => ({ status: 200, body: { sso: 'none' } }));
    await renderScreen(<LoginForm />, { url: '/user/login' });
    expect(await screen.findByLabelText(/Email/)).toHaveValue('ada@contoso.com');
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'grace@contoso.com' } });
    await waitFor(() => expect(window.sessionStorage.getItem('carriedAddress')).toBe('grace@contoso.com'));
  });

  it('reveals Send again only after a not-confirmed answer, and asks before sending', async () => {
    server = await serveApi((req) =>
      req.url?.includes('resend')
        ? { status: 200, body: { message: 'sent' } }
        : { status: 401, body: { error_code: 'ERR_USER_NOT_CONFIRMED', message: 'x' } },
    );
    const router = await renderScreen(<LoginForm />, { url: '/user/login' });
    expect(screen.queryByRole('button', { name: 'Send a new confirmation code' })).toBeNull();
    // The error texts load after the first paint; a user who types first has them (the test does not type).
    await loadTexts('en', 'errors');
    await logIn();
    expect(await screen.findByText('Your email address is not confirmed yet.')).toBeVisible();
    // The way out is a link inside the message, not a second button beside Sign in.
    const resend = await screen.findByRole('button', { name: 'Send a new confirmation code' });
    expect(resend.closest('[role="alert"]')).toHaveTextContent('Your email address is not confirmed yet.');
    fireEvent.click(resend);
    fireEvent.click(await screen.findByRole('button', { name: 'Send the code' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/check-token'));
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/auth/login',
      'PUT /api/v2/user/resend_confirmation',
    ]);
  });

  it('two submits in a row send one request', async () => {
    server = await serveApi(() => ({ status: 200, hang: true }));
    await renderScreen(<LoginForm />, { url: '/user/login' });
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'ada@contoso.com' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'secret-1' } });
    await expectOneRequestForRepeatedSubmits(screen.getByRole('form'), server.requests);
  });
});
