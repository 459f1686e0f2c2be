import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { IncomingMessage } from 'node:http';
import {
  SECURITY_STATE,
  type Answer,
  fakeSessionToken,
  polyfillDialog,
  renderScreen,
  sentence,
  serveApi,
} from '../../components/testing';
import AdminPage from './admin-page';
import ClaimPage from './claim-page';

beforeAll(polyfillDialog);

const DOMAIN = 'contoso.com';
const ME: Answer = { status: 200, body: { domains: [{ domain: DOMAIN, via: 'operator' }] } };
const NOT_FOUND: Answer = { status: 404, body: { error_code: 'ERR_NOT_FOUND', message: 'Not found' } };
const SECURITY: Answer = { status: 200, body: SECURITY_STATE };
const admin = (id: string, over: Record<string, unknown> = {}) => ({
  user_id: id,
  email: `${id}@${DOMAIN}`,
  name: `${id[0]!.toUpperCase()}${id.slice(1)} Doe`,
  via: 'admin',
  created_at: '2026-11-01T09:00:00.000Z',
  drops_at: null,
  ...over,
});
const error = (status: number, code: string, message: string): Answer => ({
  status,
  body: { error_code: code, message },
});

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  localStorage.clear();
});

/** Signed in as ada@contoso.com, the API answering `answer` (then 404). */
async function serve(answer: (req: IncomingMessage, body: string) => Answer | undefined) {
  localStorage.setItem('authorization', fakeSessionToken());
  localStorage.setItem('user', JSON.stringify({ _id: 'ada', email: 'ada@contoso.com' }));
  server = await serveApi((req, body) => answer(req, body) ?? NOT_FOUND);
}
const calls = () => server!.requests.map((r) => `${r.method} ${r.url}`);

describe('Administrators', () => {
  async function open(answer: (req: IncomingMessage, body: string) => Answer | undefined) {
    await serve((req, body) => {
      if (req.url === '/api/admin/me') return ME;
      if (req.url === '/api/v2/user/security') return SECURITY;
      return answer(req, body);
    });
    await renderScreen(<AdminPage />, { url: '/app/admin/administrators', path: '/app/admin/:section?' });
    return screen.findByRole('list', { name: 'Administrators' });
  }

  it('lists the administrators with how each became one, marks you, and warns of a vanished DNS record', async () => {
    const list = await open((req) =>
      req.url === '/api/admin/domains/contoso.com/admins'
        ? {
            status: 200,
            body: {
              admins: [
                admin('ada', { via: 'operator' }),
                admin('raj', { via: 'dns', drops_at: '2026-12-05T09:00:00.000Z' }),
              ],
            },
          }
        : undefined,
    );
    const nav = screen.getByRole('navigation', { name: 'Administration sections' });
    expect(within(nav).getByRole('link', { name: 'Administrators' })).toHaveAttribute('aria-current', 'page');
    const ada = within(list).getByRole('listitem', { name: 'Ada Doe' });
    expect(within(ada).getByText('Added by the service operator')).toBeVisible();
    expect(within(ada).getByText('You')).toBeVisible();
    expect(within(ada).getByRole('button', { name: 'Stop being an administrator' })).toBeVisible();
    const raj = within(list).getByRole('listitem', { name: 'Raj Doe' });
    expect(within(raj).getByText('Proven by DNS')).toBeVisible();
    expect(within(raj).getByText(/The DNS record that proved this is gone.*ends on/)).toBeVisible();
    expect(within(raj).getByRole('button', { name: 'Remove Raj Doe' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Prove the domain' })).toHaveAttribute('href', '/app/admin/prove-domain');
    // The field's hint names the domain as one no-wrap piece, not breakable after a hyphen.
    const hint = screen.getByText(/already has an account with an address at/);
    expect(hint.querySelector('.domain')?.textContent).toBe('contoso.com');
  });

  it('adds by address after a fresh proof; the server’s refusal is shown and the field kept', async () => {
    let proved = false;
    const list = await open((req, body) => {
      if (req.url === '/api/v2/user/reauth') {
        proved = true;
        return { status: 200, body: { ok: true } };
      }
      if (req.url !== '/api/admin/domains/contoso.com/admins') return undefined;
      if (req.method === 'GET') return { status: 200, body: { admins: [admin('ada')] } };
      const { email } = JSON.parse(body) as { email: string };
      if (email === 'bob@other.org') return error(400, 'ERR_ADMIN_NOT_IN_DOMAIN', 'Only a registered person…');
      if (!proved) return error(403, 'ERR_PROOF_REQUIRED', 'Confirm it is you.');
      return { status: 200, body: { admins: [admin('ada'), admin('zoe')] } };
    });
    const add = screen.getByRole('button', { name: 'Add administrator' });
    fireEvent.click(add);
    expect(await screen.findByText('Enter the address of a person in the domain.')).toBeVisible();
    expect(calls().some((c) => c.startsWith('POST /api/admin'))).toBe(false);

    const field = screen.getByLabelText('Email address');
    fireEvent.change(field, { target: { value: 'bob@other.org' } });
    fireEvent.click(add);
    expect(
      await screen.findByText('Only a registered person with an address in this domain can be an administrator.'),
    ).toBeVisible();
    expect(field).toHaveValue('bob@other.org');

    fireEvent.change(field, { target: { value: 'zoe@contoso.com' } });
    fireEvent.click(add);
    const proof = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    fireEvent.change(within(proof).getByLabelText('Your password'), { target: { value: 'Right-Pass-1' } });
    fireEvent.click(within(proof).getByRole('button', { name: 'Confirm' }));
    expect(await within(list).findByRole('listitem', { name: 'Zoe Doe' })).toBeVisible();
    expect(screen.getAllByText('zoe@contoso.com is now an administrator.')[0]).toBeVisible();
    expect(field).toHaveValue('');
  });

  it('removes another after a confirmation; the last administrator leaving gets the server’s message', async () => {
    const list = await open((req) => {
      if (req.url === '/api/admin/domains/contoso.com/admins') {
        return { status: 200, body: { admins: [admin('ada'), admin('raj')] } };
      }
      if (req.method === 'DELETE' && req.url === '/api/admin/domains/contoso.com/admins/raj') {
        return { status: 200, body: { admins: [admin('ada')] } };
      }
      if (req.method === 'DELETE' && req.url === '/api/admin/domains/contoso.com/admins/ada') {
        return error(409, 'ERR_ADMIN_LAST', 'last');
      }
      return undefined;
    });
    const raj = within(list).getByRole('listitem', { name: 'Raj Doe' });
    fireEvent.click(within(raj).getByRole('button', { name: 'Remove Raj Doe' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove Raj Doe as administrator?' });
    expect(within(confirm).getByText(/They keep their account/)).toBeVisible();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(list).queryByRole('listitem', { name: 'Raj Doe' })).toBeNull());
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('Raj Doe is no longer an administrator.');

    const ada = within(list).getByRole('listitem', { name: 'Ada Doe' });
    fireEvent.click(within(ada).getByRole('button', { name: 'Stop being an administrator' }));
    const leave = await screen.findByRole('dialog', { name: 'Stop administering contoso.com?' });
    fireEvent.click(within(leave).getByRole('button', { name: 'Stop being an administrator' }));
    expect(
      await screen.findByText('You are the last administrator of this domain. Add another one before leaving.'),
    ).toBeVisible();
    expect(within(list).getByRole('listitem', { name: 'Ada Doe' })).toBeVisible();
  });
});

describe('Prove your domain', () => {
  const CLAIM = {
    domain: DOMAIN,
    record_name: '_suite-challenge.contoso.com',
    record_type: 'TXT',
    record_value: 'suite-verify=abc123',
    admin: false,
  };
  async function open(verify: Answer[]) {
    await serve((req) => {
      if (req.url === '/api/admin/claim') return { status: 200, body: CLAIM };
      if (req.url === '/api/admin/claim/verify') return verify.shift();
      return undefined;
    });
    await renderScreen(<ClaimPage />, { url: '/app/admin/prove-domain', path: '/app/admin/prove-domain' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Prove your domain' })).toBeVisible();
  }

  it('shows the record to add with copyable parts, then says what each check found until it is proven', async () => {
    await open([
      error(400, 'ERR_CLAIM_RECORD_MISSING', 'missing'),
      error(400, 'ERR_CLAIM_RECORD_MISMATCH', 'mismatch'),
      { status: 503, body: { error_code: 'ERR_DNS_UNAVAILABLE', message: 'dns' } },
      { status: 200, body: { domains: [{ domain: DOMAIN, via: 'dns' }] } },
    ]);
    // Inside the home's frame: its sections stay in reach, Administration marked as the open one.
    const nav = await screen.findByRole('navigation', { name: 'Sections' });
    expect(within(nav).getByRole('link', { name: 'Meetings' })).toHaveAttribute('href', '/app/meetings');
    expect(within(nav).getByRole('link', { name: 'Administration' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByText('_suite-challenge.contoso.com')).toBeVisible();
    expect(screen.getByText('TXT')).toBeVisible();
    expect(screen.getByText('suite-verify=abc123')).toBeVisible();
    expect(screen.getAllByRole('button', { name: 'Copy' })).toHaveLength(2);
    expect(screen.getByText('Where to add it at common DNS hosts')).toBeVisible();

    const check = screen.getByRole('button', { name: 'Check now' });
    fireEvent.click(check);
    expect(await screen.findByText(/No TXT record was found at the name shown/)).toBeVisible();
    expect(screen.getByText(/can take from a few minutes to a few hours/)).toBeVisible();
    fireEvent.click(check);
    expect(await screen.findByText(/The TXT record was found, but it does not hold the value shown/)).toBeVisible();
    expect(screen.getByText(/remove any older value/)).toBeVisible();
    fireEvent.click(check);
    expect(
      await screen.findByText('The DNS servers could not be reached. Please try again in a moment.'),
    ).toBeVisible();
    fireEvent.click(check);
    expect(await screen.findByText(sentence('Done: you are now an administrator of contoso.com.'))).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open administration' })).toHaveAttribute('href', '/app/admin');
    expect(screen.queryByRole('button', { name: 'Check now' })).toBeNull();
  });

  it('a personal address is told only company domains can be proven, with no record', async () => {
    await serve((req) =>
      req.url === '/api/admin/claim'
        ? error(403, 'ERR_CLAIM_NOT_ALLOWED', 'Only people with a company address in this domain can prove it.')
        : undefined,
    );
    await renderScreen(<ClaimPage />, { url: '/app/admin/prove-domain', path: '/app/admin/prove-domain' });
    expect(await screen.findByText('Only people with a company address in this domain can prove it.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Check now' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to home' })).toBeVisible();
  });
});
