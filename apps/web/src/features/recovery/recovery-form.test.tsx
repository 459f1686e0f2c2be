import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
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
});
