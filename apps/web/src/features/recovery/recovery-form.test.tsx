import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderScreen, serveApi, expectOneRequestForRepeatedSubmits } from '../../components/testing';
import RecoveryForm from './recovery-form';

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('recovery screen', () => {
  it('mails a code and goes to the recovery code screen', async () => {
    server = await serveApi(() => ({ status: 200, body: { message: 'sent' } }));
    const router = await renderScreen(<RecoveryForm />, { url: '/user/recovery-password' });
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'ada@contoso.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Recovery' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/check-token-recovery'));
    expect(localStorage.getItem('tokenValidationEmail')).toBe('ada@contoso.com');
  });

  it('two submits in a row send one request', async () => {
    server = await serveApi(() => ({ status: 200, hang: true }));
    await renderScreen(<RecoveryForm />, { url: '/user/recovery-password' });
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'ada@contoso.com' } });
    await expectOneRequestForRepeatedSubmits(screen.getByRole('form'), server.requests);
  });

  it('an empty address is named; the address typed on the login fills the field', async () => {
    server = await serveApi(() => ({ status: 200, body: { message: 'sent' } }));
    await renderScreen(<RecoveryForm />, { url: '/user/recovery-password' });
    fireEvent.click(await screen.findByRole('button', { name: 'Recovery' }));
    expect(await screen.findByText('Enter the email of your account.')).toBeVisible();
    cleanup();
    sessionStorage.setItem('carriedAddress', 'ada@contoso.com');
    await renderScreen(<RecoveryForm />, { url: '/user/recovery-password' });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>(/Email/).value).toBe('ada@contoso.com'));
  });

  it('on a single-sign-on domain promises no code: the lead says where the password is', async () => {
    server = await serveApi((req) =>
      req.url?.endsWith('/sso/discover')
        ? { status: 200, body: { sso: 'required', domain: 'sso-recovery.test' } }
        : { status: 200, body: { message: 'sent' } },
    );
    await renderScreen(<RecoveryForm />, { url: '/user/recovery-password' });
    expect(screen.getByTestId('recovery-lead')).toHaveTextContent(/send you a code/);
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'ada@sso-recovery.test' } });
    await waitFor(() =>
      expect(screen.getByTestId('recovery-lead')).toHaveTextContent(
        'Your organization (sso-recovery.test) uses single sign\u2011on: there is no password to recover here.',
      ),
    );
    expect(screen.getByTestId('recovery-lead')).not.toHaveTextContent(/code/);
    expect(screen.queryByRole('button', { name: 'Recovery' })).toBeNull();
    // Said once: the single sign-on button comes without a box repeating the lead.
    expect(await screen.findByRole('link', { name: 'Continue with single sign\u2011on' })).toBeVisible();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('form').dataset['sso']).toBe('required');
  });
});
