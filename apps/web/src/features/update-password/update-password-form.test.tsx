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

  it('two-step on: the code is a calm step of its own (six boxes, no error), sent with the passwords', async () => {
    server = await serveApi((req, body) => {
      if (req.method !== 'PUT') return { status: 404 };
      const sent = JSON.parse(body) as { code?: string };
      if (!sent.code) return { status: 400, body: { error_code: 'ERR_SECOND_FACTOR_REQUIRED', message: 'x' } };
      if (sent.code !== '123456') return { status: 400, body: { error_code: 'ERR_SECOND_STEP_INVALID', message: 'x' } };
      return { status: 200, body: { token: fakeSessionToken(), profiles: [] } };
    });
    await submitNewPassword();
    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    expect(screen.getByText(/Two-step verification is on for/)).toBeVisible();
    // The question is new to the person: nothing is in error, no plain text field, the passwords are gone.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByLabelText(/^New password/)).toBeNull();
    expect(screen.queryByRole('textbox', { name: /code/i })).toBeNull();
    const digits = Array.from({ length: 6 }, (_, i) => screen.getByLabelText(`Digit ${i + 1} of 6`));
    expect(digits.every((box) => box.getAttribute('aria-invalid') !== 'true')).toBe(true);

    '654321'.split('').forEach((d, i) => fireEvent.change(digits[i]!, { target: { value: d } }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/code/i);
    await waitFor(() => expect(screen.getByLabelText('Digit 1 of 6')).toHaveValue(''));
    '123456'
      .split('')
      .forEach((d, i) => fireEvent.change(screen.getByLabelText(`Digit ${i + 1} of 6`), { target: { value: d } }));
    expect(await screen.findByText('Your password was changed. Taking you to the app…')).toBeVisible();
    const puts = server.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => (JSON.parse(r.body) as { code?: string }).code)).toEqual([undefined, '654321', '123456']);
    expect(JSON.parse(puts[2]!.body)).toMatchObject({
      password: 'Brand-New-7',
      password_confirmation: 'Brand-New-7',
    });
  });

  it('two-step on: a recovery code instead of the app, and back to the passwords kept as typed', async () => {
    server = await serveApi(() => ({ status: 400, body: { error_code: 'ERR_SECOND_FACTOR_REQUIRED', message: 'x' } }));
    await submitNewPassword();
    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    fireEvent.change(await screen.findByLabelText(/^Recovery code/), { target: { value: 'abcde-fghij' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(server!.requests).toHaveLength(2));
    expect(JSON.parse(server.requests[1]!.body)).toMatchObject({ code: 'abcde-fghij' });
    fireEvent.click(await screen.findByRole('button', { name: 'Back to the new password' }));
    expect(await screen.findByLabelText(/^New password/)).toHaveValue('Brand-New-7');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
