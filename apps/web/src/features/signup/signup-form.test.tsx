import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  fakeSessionToken,
  renderScreen,
  serveApi,
  type Answer,
  expectOneRequestForRepeatedSubmits,
} from '../../components/testing';
import SignupForm from './signup-form';

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function submit(email: string, answer: Answer) {
  server = await serveApi(() => answer);
  const router = await renderScreen(<SignupForm />, { url: '/user/signup' });
  fireEvent.change(await screen.findByLabelText(/Work email/), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name: 'Go' }));
  return router;
}

describe('sign-up screen answers (spec §8)', () => {
  it('checks the shape before calling: Enter a valid email!', async () => {
    await submit('not-an-address', { status: 201 });
    expect(await screen.findByText('Enter a valid email!')).toBeVisible();
    expect(server?.requests).toHaveLength(0);
  });

  it('shows the corporate-only text for a personal address', async () => {
    await submit('me@gmail.com', { status: 400, body: { error_code: 'ERR_PERSONAL_EMAIL_NOT_ALLOWED', message: 'x' } });
    // The spec's text, then the way in.
    expect(
      await screen.findByText(
        'Oh...sorry! We just accept corporate emails. To join with this address, ask a colleague for an invitation.',
      ),
    ).toBeVisible();
  });

  it('shows the matching text of a 400', async () => {
    await submit('ada@contoso.com', { status: 400, body: { error_code: 'ERR_EMAIL_IN_USE', message: 'x' } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Email address already in use!');
    // It leads somewhere: logging in, or resetting the password.
    expect(within(alert).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/user/login');
    expect(within(alert).getByRole('link', { name: 'Reset your password' }).getAttribute('href')).toBe(
      '/user/recovery-password',
    );
  });

  it('shows the localized captcha text of a 400 ERR_CAPTCHA_FAILED (not the server message)', async () => {
    await submit('ada@contoso.com', { status: 400, body: { error_code: 'ERR_CAPTCHA_FAILED', message: 'x' } });
    expect(await screen.findByText('Could not verify that you are not a robot. Please try again.')).toBeVisible();
  });

  it('shows Request Error for a 401 without error_code and for a 500', async () => {
    await submit('ada@contoso.com', { status: 401, body: { message: 'no code' } });
    expect(await screen.findByText('Request Error')).toBeVisible();
  });

  it('goes to the code screen on 409 and remembers the address', async () => {
    const router = await submit('ada@contoso.com', {
      status: 409,
      body: { error_code: 'ERR_USER_NOT_CONFIRMED_SIGNUP', message: 'x' },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/check-token'));
    expect(localStorage.getItem('tokenValidationEmail')).toBe('ada@contoso.com');
  });

  it('goes to the code screen on 201 and sends the invite token of a team link', async () => {
    server = await serveApi(() => ({ status: 201, body: { email: 'ada@contoso.com', message: 'sent' } }));
    const router = await renderScreen(<SignupForm />, { url: '/user/signup?inviteToken=team-token' });
    fireEvent.change(await screen.findByLabelText(/Work email/), { target: { value: 'ada@contoso.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/check-token'));
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ email: 'ada@contoso.com', invite_token: 'team-token' });
  });

  it('an invite answered with a session skips the code step and leaves no address waiting for a code', async () => {
    localStorage.setItem('tokenValidationEmail', 'earlier@contoso.com');
    const profile = { _id: 'p1', type: 'PERSONAL', info: { first_name: '', last_name: '' } };
    const session = { token: fakeSessionToken(), profiles: [profile] };
    server = await serveApi(() => ({
      status: 201,
      body: { email: 'ada@contoso.com', message: 'accepted', ...session },
    }));
    const router = await renderScreen(<SignupForm />, { url: '/user/signup?inviteToken=personal-token' });
    fireEvent.change(await screen.findByLabelText(/Work email/), { target: { value: 'ada@contoso.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/welcome'));
    expect(localStorage.getItem('authorization')).toBe(session.token);
    expect(localStorage.getItem('tokenValidationEmail')).toBeNull();
  });

  it('two submits in a row send one request', async () => {
    server = await serveApi(() => ({ status: 200, hang: true }));
    await renderScreen(<SignupForm />, { url: '/user/signup' });
    fireEvent.change(await screen.findByLabelText(/Work email/), { target: { value: 'ada@contoso.com' } });
    await expectOneRequestForRepeatedSubmits(screen.getByRole('form'), server.requests);
  });

  it('"already in use" stays when the field loses focus: its links take the Tab and the click', async () => {
    await submit('ada@contoso.com', { status: 400, body: { error_code: 'ERR_EMAIL_IN_USE', message: 'x' } });
    const alert = await screen.findByRole('alert');
    const field = screen.getByLabelText(/Work email/);
    const login = within(alert).getByRole('link', { name: 'Sign in' });
    // Tab from the field to the link: the field blurs, the alert and its link stay.
    fireEvent.blur(field, { relatedTarget: login });
    login.focus();
    expect(document.activeElement).toBe(login);
    expect(screen.getByRole('alert')).toHaveTextContent('Email address already in use!');
    // The address typed goes with both links (and the bottom "Sign in"): the next form starts with it.
    expect(sessionStorage.getItem('carriedAddress')).toBe('ada@contoso.com');
    // A changed address is another question: the message goes.
    fireEvent.change(field, { target: { value: 'grace@contoso.com' } });
    expect(screen.queryByText(/already in use/)).toBeNull();
    expect(sessionStorage.getItem('carriedAddress')).toBe('grace@contoso.com');
  });

  it('an empty address is named: Enter your work email.', async () => {
    server = await serveApi(() => ({ status: 201 }));
    await renderScreen(<SignupForm />, { url: '/user/signup' });
    fireEvent.click(await screen.findByRole('button', { name: 'Go' }));
    expect(await screen.findByText('Enter your work email.')).toBeVisible();
    expect(server.requests).toHaveLength(0);
  });

  it('starts with the address typed on the previous form', async () => {
    sessionStorage.setItem('carriedAddress', 'ada@contoso.com');
    await renderScreen(<SignupForm />, { url: '/user/signup' });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>(/Work email/).value).toBe('ada@contoso.com'));
  });

  it('on a single-sign-on domain promises no code: the lead says the first sign-in makes the account, once', async () => {
    server = await serveApi((req) =>
      req.url?.endsWith('/sso/discover')
        ? { status: 200, body: { sso: 'required', domain: 'sso-signup.test' } }
        : { status: 201, body: {} },
    );
    await renderScreen(<SignupForm />, { url: '/user/signup' });
    expect(screen.getByTestId('signup-lead')).toHaveTextContent(/6-digit code/);
    fireEvent.change(await screen.findByLabelText(/Work email/), { target: { value: 'ada@sso-signup.test' } });
    expect(await screen.findByRole('link', { name: 'Continue with single sign\u2011on' })).toBeVisible();
    expect(screen.getByTestId('signup-lead')).toHaveTextContent(
      'Your organization (sso-signup.test) uses single sign\u2011on: your first sign-in with it creates your account here.',
    );
    expect(screen.getByTestId('signup-lead')).not.toHaveTextContent(/code/);
    // Said once: no box under the field repeating the lead; the layout's panel reads data-sso.
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('form').dataset['sso']).toBe('required');
    expect(screen.queryByRole('button', { name: 'Go' })).toBeNull();
  });
});
