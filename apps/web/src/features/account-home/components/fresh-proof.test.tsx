import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SECURITY_STATE, type Answer } from '../../../components/testing';
import { SETUP, openSecurityPanel } from './security-panel-testing';

const proofRequired: Answer = {
  status: 403,
  body: {
    error_code: 'ERR_PROOF_REQUIRED',
    message: 'For your security, confirm it is you before changing how you sign in.',
  },
};

/** The one passkey of the removal tests: "Desk". */
const passkey = {
  _id: 'pk1',
  name: 'Desk',
  created_at: '2026-01-01T00:00:00.000Z',
  last_used_at: null,
  synced: false,
};

describe('the fresh-proof dialog of the Security panel', () => {
  it('asks for the password when the server wants a recent proof, then makes the change without a second click', async () => {
    let proved = false;
    const api = await openSecurityPanel((req, body) => {
      if (req.url === '/api/v2/user/security') return { status: 200, body: SECURITY_STATE };
      if (req.url === '/api/v2/user/reauth') {
        const ok = (JSON.parse(body) as { password?: string }).password === 'Right-Pass-1';
        proved ||= ok;
        return ok
          ? { status: 200, body: { ok: true } }
          : {
              status: 400,
              body: { error_code: 'ERR_WRONG_CURRENT_PASSWORD', message: 'The current password is not correct.' },
            };
      }
      if (req.url === '/api/v2/user/totp/setup') return proved ? { status: 200, body: SETUP } : proofRequired;
      return { status: 404, body: {} };
    });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    fireEvent.change(within(dialog).getByLabelText('Your password'), { target: { value: 'wrong-pass' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      'The current password is not correct.',
    );
    fireEvent.change(within(dialog).getByLabelText('Your password'), { target: { value: 'Right-Pass-1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(
      await screen.findByRole('img', { name: 'QR code to add this account to an authenticator app' }),
    ).toBeVisible();
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/v2/user/security',
      'POST /api/v2/user/totp/setup',
      'POST /api/v2/user/reauth',
      'POST /api/v2/user/reauth',
      'POST /api/v2/user/totp/setup',
    ]);
  });

  it('closing the dialog changes nothing and says no error', async () => {
    const api = await openSecurityPanel((req) =>
      req.url === '/api/v2/user/security' ? { status: 200, body: SECURITY_STATE } : proofRequired,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Turn on' })).toBeVisible();
    expect(api.requests.filter((r) => r.url === '/api/v2/user/totp/setup')).toHaveLength(1);
  });

  it('removing a passkey goes through the same dialog, then removes it without a second click', async () => {
    let proved = false;
    const api = await openSecurityPanel((req) => {
      if (req.url === '/api/v2/user/security') return { status: 200, body: { ...SECURITY_STATE, passkeys: [passkey] } };
      if (req.url === '/api/v2/user/reauth') {
        proved = true;
        return { status: 200, body: { ok: true } };
      }
      if (req.url === '/api/v2/user/passkeys/pk1') return proved ? { status: 200, body: { ok: true } } : proofRequired;
      return { status: 404, body: {} };
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remove Desk' }));
    const confirm = await screen.findByRole('dialog', { name: /Desk/ });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    fireEvent.change(within(dialog).getByLabelText('Your password'), { target: { value: 'Right-Pass-1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Passkey “Desk” removed.')).toBeVisible();
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/v2/user/security',
      'DELETE /api/v2/user/passkeys/pk1',
      'POST /api/v2/user/reauth',
      'DELETE /api/v2/user/passkeys/pk1',
    ]);
  });

  it('closing the dialog of a removal keeps the passkey and says nothing was removed', async () => {
    const api = await openSecurityPanel((req) =>
      req.url === '/api/v2/user/security'
        ? { status: 200, body: { ...SECURITY_STATE, passkeys: [passkey] } }
        : proofRequired,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove Desk' }));
    const confirm = await screen.findByRole('dialog', { name: /Desk/ });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Nothing was removed.')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Desk' })).toBeVisible();
    expect(api.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });
});
