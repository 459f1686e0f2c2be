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

beforeAll(polyfillDialog);

const DOMAIN = 'contoso.com';
const person = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  email: `${id}@${DOMAIN}`,
  first_name: id[0]!.toUpperCase() + id.slice(1),
  last_name: 'Doe',
  status: 'active',
  methods: ['password', 'two_step'],
  sessions: 2,
  last_sign_in_at: '2026-11-20T10:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  admin: false,
  ...over,
});
const ME: Answer = { status: 200, body: { domains: [{ domain: DOMAIN, via: 'operator' }] } };
const SECURITY: Answer = { status: 200, body: SECURITY_STATE };
const proofRequired: Answer = {
  status: 403,
  body: { error_code: 'ERR_PROOF_REQUIRED', message: 'Confirm it is you.' },
};

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** The console at `url` against `answer` for the section's calls (/admin/me and the security state answered here). */
async function open(url: string, answer: (req: IncomingMessage, body: string) => Answer | undefined) {
  localStorage.setItem('authorization', fakeSessionToken());
  server = await serveApi((req, body) => {
    if (req.url === '/api/admin/me') return ME;
    if (req.url === '/api/v2/user/security') return SECURITY;
    return answer(req, body) ?? { status: 404, body: { error_code: 'ERR_NOT_FOUND', message: 'Not found' } };
  });
  const router = await renderScreen(<AdminPage />, { url, path: '/app/admin/:section?' });
  return { router, server };
}
const calls = () => server!.requests.map((r) => `${r.method} ${r.url}`);

describe('the console’s frame', () => {
  it('names the domain and marks the open section in the navigation; each section has its own address', async () => {
    const { router } = await open('/app/admin', (req) =>
      req.url?.startsWith('/api/admin/domains/contoso.com/people')
        ? { status: 200, body: { people: [], next_cursor: null } }
        : undefined,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
    expect(await screen.findByText(sentence('Domain contoso.com'))).toBeVisible();
    const nav = screen.getByRole('navigation', { name: 'Administration sections' });
    expect(within(nav).getByRole('link', { name: 'People' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Audit trail' })).toHaveAttribute('href', '/app/admin/audit');
    expect(await screen.findByText('Nobody here yet.')).toBeVisible();
    router.navigate('/app/admin/sign-up-rules');
    await waitFor(() =>
      expect(within(nav).getByRole('link', { name: 'Sign-up rules' })).toHaveAttribute('aria-current', 'page'),
    );
  });
});

describe('People', () => {
  const page1 = {
    people: [person('ana'), person('raj', { status: 'invited', methods: [], sessions: 0, last_sign_in_at: null })],
    next_cursor: 'c2',
  };
  const page2 = { people: [person('zoe', { status: 'deactivated', sessions: 0 })], next_cursor: null };

  it('shows each person with state, methods, sessions and last sign-in; search, filter and "Show more" ask the server', async () => {
    await open('/app/admin', (req) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname !== '/api/admin/domains/contoso.com/people') return undefined;
      return { status: 200, body: url.searchParams.get('cursor') === 'c2' ? page2 : page1 };
    });
    const list = await screen.findByRole('list', { name: 'People' });
    const ana = within(list).getByRole('listitem', { name: 'Ana Doe' });
    expect(within(ana).getByText('ana@contoso.com')).toBeVisible();
    expect(within(ana).getByText('Active')).toBeVisible();
    expect(within(ana).getByText('Password, Two-step verification')).toBeVisible();
    expect(within(ana).getByText('2 sessions')).toBeVisible();
    expect(within(ana).getByRole('button', { name: 'Deactivate' })).toHaveClass('btn--quiet-danger');
    expect(within(ana).getByRole('button', { name: 'Reset two-step' })).toBeVisible();
    const raj = within(list).getByRole('listitem', { name: 'Raj Doe' });
    expect(within(raj).getByText('Never')).toBeVisible();
    expect(within(raj).getByText('No sign-in method yet')).toBeVisible();
    expect(within(raj).getByRole('button', { name: 'Resend invitation' })).toBeVisible();
    expect(within(raj).queryByRole('button', { name: 'Deactivate' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Show more people' }));
    expect(await within(list).findByRole('listitem', { name: 'Zoe Doe' })).toBeVisible();
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Show more people' })).toBeNull();

    fireEvent.change(screen.getByLabelText('Name or email address'), { target: { value: ' raj ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls()).toContain('GET /api/admin/domains/contoso.com/people?q=raj'));
    fireEvent.click(screen.getByLabelText('Deactivated'));
    await waitFor(() =>
      expect(calls()).toContain('GET /api/admin/domains/contoso.com/people?q=raj&status=deactivated'),
    );
  });

  it('deactivates after a confirmation; when the server wants a recent proof it asks for the password, then does it', async () => {
    let proved = false;
    await open('/app/admin', (req, body) => {
      if (req.url?.startsWith('/api/admin/domains/contoso.com/people')) return { status: 200, body: page1 };
      if (req.url === '/api/v2/user/reauth') {
        proved = (JSON.parse(body) as { password?: string }).password === 'Right-Pass-1';
        return proved
          ? { status: 200, body: { ok: true } }
          : { status: 400, body: { error_code: 'ERR_WRONG_CURRENT_PASSWORD', message: 'Wrong.' } };
      }
      if (req.url === '/api/admin/people/ana/deactivate') {
        return proved
          ? { status: 200, body: { person: person('ana', { status: 'deactivated', sessions: 0 }) } }
          : proofRequired;
      }
      return undefined;
    });
    const ana = within(await screen.findByRole('list', { name: 'People' })).getByRole('listitem', { name: 'Ana Doe' });
    fireEvent.click(within(ana).getByRole('button', { name: 'Deactivate' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deactivate Ana Doe?' });
    expect(within(confirm).getByText(/signed out on every device at once/)).toBeVisible();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));

    const proof = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    fireEvent.change(within(proof).getByLabelText('Your password'), { target: { value: 'Right-Pass-1' } });
    fireEvent.click(within(proof).getByRole('button', { name: 'Confirm' }));
    expect(await within(ana).findByText('Deactivated')).toBeVisible();
    expect(within(ana).getByRole('button', { name: 'Reactivate' })).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Ana Doe is deactivated and signed out everywhere.');
    expect(calls().filter((c) => c === 'POST /api/admin/people/ana/deactivate')).toHaveLength(2);
  });

  it('cancelling the confirmation sends nothing', async () => {
    await open('/app/admin', (req) =>
      req.url?.startsWith('/api/admin/domains/contoso.com/people') ? { status: 200, body: page1 } : undefined,
    );
    const ana = within(await screen.findByRole('list', { name: 'People' })).getByRole('listitem', { name: 'Ana Doe' });
    fireEvent.click(within(ana).getByRole('button', { name: 'Reset two-step' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset two-step verification of Ana Doe?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(confirm).not.toHaveAttribute('open'));
    expect(calls().some((c) => c.startsWith('POST'))).toBe(false);
    expect(within(ana).getByText('Active')).toBeVisible();
  });

  it('invites a pasted list and says who was skipped and why', async () => {
    await open('/app/admin', (req, body) => {
      if (req.url?.startsWith('/api/admin/domains/contoso.com/people')) return { status: 200, body: page1 };
      if (req.url === '/api/admin/domains/contoso.com/invitations') {
        expect((JSON.parse(body) as { text: string }).text).toBe('a@contoso.com\nb@other.org');
        return {
          status: 200,
          body: { invited: ['a@contoso.com'], skipped: [{ email: 'b@other.org', reason: 'other_domain' }] },
        };
      }
      return undefined;
    });
    await screen.findByRole('list', { name: 'People' });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitations' }));
    expect(await screen.findByText('Paste at least one email address.')).toBeVisible();
    fireEvent.change(screen.getByLabelText('Email addresses'), { target: { value: 'a@contoso.com\nb@other.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitations' }));
    expect(await screen.findByText('1 address was skipped:')).toBeVisible();
    expect(screen.getByText(/not an address in your domain/)).toBeVisible();
    expect(screen.getAllByText('1 invitation sent.')[0]).toBeVisible();
  });

  it('offers no "Deactivate" on the administrator’s own row; the invitation box shows addresses of the domain', async () => {
    localStorage.setItem('user', JSON.stringify({ email: 'Ana@contoso.com' }));
    await open('/app/admin', (req) =>
      req.url?.startsWith('/api/admin/domains/contoso.com/people')
        ? { status: 200, body: { people: [person('ana'), person('zoe')], next_cursor: null } }
        : undefined,
    );
    const list = await screen.findByRole('list', { name: 'People' });
    const me = within(list).getByRole('listitem', { name: 'Ana Doe' });
    expect(within(me).queryByRole('button', { name: 'Deactivate' })).toBeNull();
    expect(within(me).getByRole('button', { name: 'Reset two-step' })).toBeVisible();
    const zoe = within(list).getByRole('listitem', { name: 'Zoe Doe' });
    expect(within(zoe).getByRole('button', { name: 'Deactivate' })).toHaveClass('btn--quiet-danger');
    const box = screen.getByLabelText('Email addresses');
    expect(box).toHaveAttribute('placeholder', 'ana@contoso.com\nraj@contoso.com');
    expect(box.parentElement).toHaveClass('admin__textarea-control');
    localStorage.removeItem('user');
  });
});

describe('Sign-up rules', () => {
  const rules = (over: Record<string, unknown> = {}) => ({
    mode: 'open',
    sso_only: false,
    sso_only_available: false,
    sso_connection: false,
    seats: { used: 12, limit: 50 },
    ...over,
  });

  it('shows SSO-only off with the reason when it cannot be turned on, the seats, and saves only what changed', async () => {
    await open('/app/admin/sign-up-rules', (req, body) => {
      if (req.url !== '/api/admin/domains/contoso.com/signup-rules') return undefined;
      if (req.method === 'PUT') return { status: 200, body: rules(JSON.parse(body) as Record<string, unknown>) };
      return { status: 200, body: rules() };
    });
    expect(await screen.findByRole('heading', { name: 'Sign-up rules', level: 2 })).toBeVisible();
    const ssoOnly = await screen.findByLabelText('Single sign\u2011on only');
    expect(ssoOnly).toBeDisabled();
    expect(screen.getByText('Not available yet: your domain has no single sign\u2011on connection.')).toBeVisible();
    expect(screen.getByText('Free plan: 12 of 50 seats used.')).toBeVisible();
    expect(screen.getByRole('radio', { name: /Open to the domain/ })).toBeChecked();
    const save = screen.getByRole('button', { name: 'Save changes' });
    expect(save).toBeDisabled();
    fireEvent.click(screen.getByRole('radio', { name: /Approval by an administrator/ }));
    fireEvent.click(save);
    expect((await screen.findAllByText('Sign-up rules saved.'))[0]).toBeVisible();
    const put = server!.requests.find((r) => r.method === 'PUT');
    expect(JSON.parse(put!.body)).toEqual({ mode: 'approval' });
  });

  it('says why SSO-only waits when a connection exists but this session did not come through it', async () => {
    await open('/app/admin/sign-up-rules', (req) =>
      req.url === '/api/admin/domains/contoso.com/signup-rules'
        ? { status: 200, body: rules({ sso_connection: true, seats: { used: 3, limit: null } }) }
        : undefined,
    );
    expect(await screen.findByText(/sign in through your organization’s single sign.on first/)).toBeVisible();
    expect(screen.getByText('3 seats used; no limit.')).toBeVisible();
  });
});

describe('Security policy', () => {
  const policy = {
    require_two_step: false,
    two_step_grace_days: 0,
    two_step_grace_until: null,
    session_max_ms: null,
    session_idle_ms: null,
    trust_browsers: true,
  };

  it('requires two-step with a grace period and a session lifetime; a grace out of bounds is refused before sending', async () => {
    await open('/app/admin/security-policy', (req, body) => {
      if (req.url !== '/api/admin/domains/contoso.com/security-policy') return undefined;
      if (req.method === 'PUT') return { status: 200, body: { ...policy, ...(JSON.parse(body) as object) } };
      return { status: 200, body: policy };
    });
    const requireIt = await screen.findByLabelText('Require two-step verification for password sign-ins');
    expect(requireIt).not.toBeChecked();
    expect(screen.queryByLabelText('Grace period (days)')).toBeNull();
    fireEvent.click(requireIt);
    const grace = screen.getByLabelText('Grace period (days)');
    fireEvent.change(grace, { target: { value: '45' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Enter a number of days from 0 to 30.')).toBeVisible();
    expect(server!.requests.some((r) => r.method === 'PUT')).toBe(false);
    fireEvent.change(grace, { target: { value: '7' } });
    fireEvent.change(screen.getByLabelText('Maximum session lifetime'), { target: { value: String(7 * 86_400_000) } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findAllByText('Security policy saved.'))[0]).toBeVisible();
    const put = server!.requests.find((r) => r.method === 'PUT');
    expect(JSON.parse(put!.body)).toEqual({
      require_two_step: true,
      two_step_grace_days: 7,
      session_max_ms: 7 * 86_400_000,
      session_idle_ms: null,
      trust_browsers: true,
    });
    expect(screen.getByLabelText('Maximum session lifetime')).toHaveDisplayValue('7 days');
  });

  it('turns trusted browsers off and shows the saved switch as the server answered it', async () => {
    await open('/app/admin/security-policy', (req, body) => {
      if (req.url !== '/api/admin/domains/contoso.com/security-policy') return undefined;
      if (req.method === 'PUT') return { status: 200, body: { ...policy, ...(JSON.parse(body) as object) } };
      return { status: 200, body: policy };
    });
    const trust = await screen.findByLabelText('Let people trust their browser for 30 days');
    expect(trust).toBeChecked();
    fireEvent.click(trust);
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findAllByText('Security policy saved.'))[0]).toBeVisible();
    const put = server!.requests.find((r) => r.method === 'PUT');
    expect(JSON.parse(put!.body)).toMatchObject({ trust_browsers: false, require_two_step: false });
    expect(screen.getByLabelText('Let people trust their browser for 30 days')).not.toBeChecked();
  });
});

describe('Audit trail', () => {
  it('lists events newest first, filters by kind and person, and exports the same filters as CSV', async () => {
    await open('/app/admin/audit', (req) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/api/admin/domains/contoso.com/audit')
        return {
          status: 200,
          body: {
            events: [
              {
                id: 'e1',
                at: '2026-11-27T09:00:00.000Z',
                kind: 'sign_in_failed',
                action: 'password',
                actor_email: null,
                target_email: 'ana@contoso.com',
                reason: 'ERR_INVALID_CREDENTIALS',
                ip: '203.0.113.9',
                details: {},
              },
              {
                id: 'e2',
                at: '2026-11-27T08:00:00.000Z',
                kind: 'admin_action',
                action: 'admin_added',
                actor_email: 'zoe@contoso.com',
                target_email: 'ana@contoso.com',
                reason: null,
                ip: null,
                details: {},
              },
              {
                id: 'e3',
                at: '2026-11-27T07:00:00.000Z',
                kind: 'code_mailed',
                action: 'confirm',
                actor_email: null,
                target_email: 'ana@contoso.com',
                reason: null,
                ip: null,
                details: {},
              },
              {
                id: 'e4',
                at: '2026-11-27T06:00:00.000Z',
                kind: 'sso_failed',
                action: 'some_future_step',
                actor_email: null,
                target_email: 'ana@contoso.com',
                reason: 'no-seats',
                ip: null,
                details: {},
              },
            ],
            next_cursor: null,
          },
        };
      return undefined;
    });
    const list = await screen.findByRole('list', { name: 'Audit trail' });
    expect(within(list).getByText('Failed sign-in')).toBeVisible();
    // Each kind, action and reason in words, never the stored code.
    expect(within(list).getByText('With a password')).toBeVisible();
    expect(await within(list).findByText('Reason: Invalid email or password.')).toBeVisible();
    expect(within(list).getByText('Administrator added')).toBeVisible();
    expect(within(list).getByText('Sign-up confirmation code')).toBeVisible();
    expect(within(list).getByText('Reason: No free seat left')).toBeVisible();
    // A code this version has no words for still reads as words.
    expect(within(list).getByText('Some future step')).toBeVisible();
    for (const code of ['ERR_INVALID_CREDENTIALS', 'admin_added', 'confirm', 'password', 'no-seats'])
      expect(within(list).queryByText(code)).toBeNull();
    expect(within(list).getAllByText('ana@contoso.com')[0]).toBeVisible();
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'admin_action' } });
    fireEvent.change(screen.getByLabelText('Person (email address)'), { target: { value: 'ana@contoso.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() =>
      expect(calls()).toContain('GET /api/admin/domains/contoso.com/audit?person=ana%40contoso.com&kind=admin_action'),
    );
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeVisible();
  });
});

describe('Requests', () => {
  const request = (id: string, email: string) => ({
    id,
    email,
    domain: DOMAIN,
    reason: 'approval',
    message: 'I joined the sales team.',
    status: 'pending',
    created_at: '2026-11-27T09:00:00.000Z',
    decided_at: null,
    decided_by: null,
  });

  it('approves one (it leaves the list, said aloud) and refuses another only after a confirmation', async () => {
    await open('/app/admin/requests', (req) => {
      if (req.url?.startsWith('/api/admin/domains/contoso.com/requests'))
        return {
          status: 200,
          body: { requests: [request('r1', 'new@contoso.com'), request('r2', 'odd@contoso.com')], next_cursor: null },
        };
      if (req.url === '/api/admin/requests/r1/approve')
        return { status: 200, body: { request: { ...request('r1', 'new@contoso.com'), status: 'approved' } } };
      if (req.url === '/api/admin/requests/r2/refuse')
        return { status: 200, body: { request: { ...request('r2', 'odd@contoso.com'), status: 'refused' } } };
      return undefined;
    });
    const list = await screen.findByRole('list', { name: 'Requests' });
    expect(within(list).getAllByText('I joined the sales team.')[0]).toBeVisible();
    fireEvent.click(within(list).getByRole('button', { name: 'Approve the request of new@contoso.com' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(within(list).getByRole('listitem')).toHaveTextContent('odd@contoso.com');
    expect(screen.getByRole('status')).toHaveTextContent('The request of new@contoso.com was approved.');
    fireEvent.click(within(list).getByRole('button', { name: 'Refuse the request of odd@contoso.com' }));
    const confirm = await screen.findByRole('dialog', { name: 'Refuse this request?' });
    expect(calls()).not.toContain('POST /api/admin/requests/r2/refuse');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Refuse' }));
    expect(await screen.findByText('No request is waiting.')).toBeVisible();
  });
});
