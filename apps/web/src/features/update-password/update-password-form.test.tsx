import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeSessionToken, renderScreen, serveApi } from '../../components/testing';
import UpdatePasswordForm from './update-password-form';

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function submitNewPassword() {
  const user = { _id: 'u1', email: 'ada@contoso.com', preferences: {}, profile_id: 'p1' };
  localStorage.setItem('authorization', fakeSessionToken(user, { kind: 'recovery' }));
  localStorage.setItem('user', JSON.stringify(user));
  const router = await renderScreen(<UpdatePasswordForm />, { url: '/user/update-password' });
  fireEvent.change(await screen.findByLabelText(/^New password/), { target: { value: 'Brand-New-7' } });
  fireEvent.change(screen.getByLabelText(/^Confirm/), { target: { value: 'Brand-New-7' } });
  fireEvent.click(screen.getByRole('button', { name: /Save/ }));
  return router;
}

describe('update password screen', () => {
  it('opened without a recovery: the ended state has its own heading, not "Welcome back"', async () => {
    await renderScreen(<UpdatePasswordForm />, { url: '/user/update-password' });
    expect(await screen.findByRole('heading', { level: 1, name: 'This recovery has ended' })).toBeVisible();
    expect(screen.queryByText('Welcome back')).toBeNull();
    expect(screen.getByText('Ask for a new code to choose your new password.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Start again' }).getAttribute('href')).toBe('/user/recovery-password');
    expect(document.title).toContain('This recovery has ended');
  });

  it('an answer whose session cannot be stored is a Request Error, not a way on', async () => {
    server = await serveApi(() => ({ status: 200, body: { token: 'not-a-jwt', profiles: [] } }));
    const router = await submitNewPassword();
    expect(await screen.findByText('Request Error')).toBeVisible();
    expect(router.state.location.pathname).toBe('/user/update-password');
    expect(server.requests).toHaveLength(1);
  });

  it('stores the new session, says the password changed, then goes to the main app', async () => {
    const token = fakeSessionToken();
    server = await serveApi(() => ({ status: 200, body: { token, profiles: [] } }));
    const router = await submitNewPassword();
    expect(await screen.findByText('Your password was changed. Taking you to the app…')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Continue now' }));
    await screen.findByText('elsewhere');
    expect(router.state.location.pathname).toBe('/app');
    expect(localStorage.getItem('authorization')).toBe(token);
  });

  it('with the recovery token asks nothing more; with a normal session asks and sends the current password', async () => {
    server = await serveApi(() => ({ status: 200, body: { token: fakeSessionToken(), profiles: [] } }));
    await submitNewPassword();
    expect(await screen.findByText('Your password was changed. Taking you to the app…')).toBeVisible();
    expect(JSON.parse(server.requests[0]!.body)).toEqual({
      password: 'Brand-New-7',
      password_confirmation: 'Brand-New-7',
    });
  });

  it('a normal session: the current password is required and sent', async () => {
    server = await serveApi(() => ({ status: 200, body: { token: fakeSessionToken(), profiles: [] } }));
    const user = { _id: 'u1', email: 'ada@contoso.com', preferences: {}, profile_id: 'p1' };
    localStorage.setItem('authorization', fakeSessionToken(user));
    localStorage.setItem('user', JSON.stringify(user));
    await renderScreen(<UpdatePasswordForm />, { url: '/user/update-password' });
    fireEvent.change(await screen.findByLabelText(/^New password/), { target: { value: 'Brand-New-7' } });
    fireEvent.change(screen.getByLabelText(/^Confirm/), { target: { value: 'Brand-New-7' } });
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    // The spec's sentence for the form, and the field that misses something named at the field.
    expect(await screen.findByText('Please fill in all fields.')).toBeVisible();
    expect(screen.getByText('Enter your current password.')).toBeVisible();
    expect(screen.getByLabelText(/^Current password/)).toHaveAccessibleDescription('Enter your current password.');
    expect(server.requests).toHaveLength(0);
    fireEvent.change(screen.getByLabelText(/^Current password/), { target: { value: 'Old-Pass-1' } });
    fireEvent.click(screen.getByRole('button', { name: /Save/ }));
    expect(await screen.findByText('Your password was changed. Taking you to the app…')).toBeVisible();
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ current_password: 'Old-Pass-1' });
  });

  it('on a single-sign-on domain promises no new password: it says where the password is kept', async () => {
    server = await serveApi((req) =>
      req.url?.endsWith('/sso/discover') ? { status: 200, body: { sso: 'required' } } : { status: 500 },
    );
    const user = { _id: 'u1', email: 'ada@sso-update.test', preferences: {}, profile_id: 'p1' };
    localStorage.setItem('authorization', fakeSessionToken(user));
    localStorage.setItem('user', JSON.stringify(user));
    await renderScreen(<UpdatePasswordForm />, { url: '/user/update-password' });
    expect(await screen.findByTestId('update-sso-lead')).toHaveTextContent(
      'Your organization (sso-update.test) uses single sign\u2011on',
    );
    expect(screen.queryByLabelText(/^New password/)).toBeNull();
    expect(screen.getAllByRole('button')).toHaveLength(1);
  });

  it('a code step of its own goes to the login with the trust box allowed as the server says', async () => {
    server = await serveApi(() => ({
      status: 200,
      body: { second_step: 'totp', pending_token: 'pending-1', trust_allowed: true },
    }));
    const router = await submitNewPassword();
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect((window.history.state as { usr?: unknown }).usr).toEqual({
      secondStep: { pendingToken: 'pending-1', email: 'ada@contoso.com', trustAllowed: true },
    });
  });
});
