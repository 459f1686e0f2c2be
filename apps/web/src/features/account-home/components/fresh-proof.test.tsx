import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { IncomingMessage } from 'node:http';
import { fakeSessionToken, renderScreen, serveApi, type Answer } from '../../../components/testing';
import { SecurityPanel } from './security-panel';

beforeAll(() => {
  // happy-dom lacks the modal API of <dialog>.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
});

const STATE = {
  passkeys: [],
  totp: false,
  recovery_codes_left: 0,
  totp_available: true,
  has_password: true,
  reauth: ['password'],
};
const SETUP = { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Suite:a?secret=JBSWY3DPEHPK3PXP', qr_svg: '<svg/>' };
const proofRequired: Answer = {
  status: 403,
  body: {
    error_code: 'ERR_PROOF_REQUIRED',
    message: 'For your security, confirm it is you before changing how you sign in.',
  },
};

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function open(answer: (req: IncomingMessage, body: string) => Answer) {
  localStorage.setItem('authorization', fakeSessionToken());
  server = await serveApi(answer);
  await renderScreen(<SecurityPanel />, { url: '/app', path: '/app' });
  await screen.findByRole('button', { name: 'Turn on' });
  return server;
}

describe('the fresh-proof dialog of the Security panel', () => {
  it('asks for the password when the server wants a recent proof, then makes the change without a second click', async () => {
    let proved = false;
    const api = await open((req, body) => {
      if (req.url === '/api/v2/user/security') return { status: 200, body: STATE };
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
    const api = await open((req) =>
      req.url === '/api/v2/user/security' ? { status: 200, body: STATE } : proofRequired,
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
    const passkey = {
      _id: 'pk1',
      name: 'Desk',
      created_at: '2026-01-01T00:00:00.000Z',
      last_used_at: null,
      synced: false,
    };
    let proved = false;
    const api = await open((req) => {
      if (req.url === '/api/v2/user/security') return { status: 200, body: { ...STATE, passkeys: [passkey] } };
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
    const passkey = {
      _id: 'pk1',
      name: 'Desk',
      created_at: '2026-01-01T00:00:00.000Z',
      last_used_at: null,
      synced: false,
    };
    const api = await open((req) =>
      req.url === '/api/v2/user/security' ? { status: 200, body: { ...STATE, passkeys: [passkey] } } : proofRequired,
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
