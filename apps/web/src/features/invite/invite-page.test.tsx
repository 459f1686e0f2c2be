import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeSessionToken, renderServed, type Answer } from '../../components/testing';
import InvitePage from './invite-page';

const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const invite = `${b64({ alg: 'HS256' })}.${b64({ email: 'maria@gmail.com', exp: Math.floor(Date.now() / 1000) + 600 })}.c2ln`;

/**
 * Serves `answer` for the sign-up (and `check` for the invitation's check, GET /invite/validate) and
 * records where the progress bar stood when each call arrived.
 */
const open = (answer: Answer, check: Answer = { status: 200, body: { email: 'maria@gmail.com', status: 'pending' } }) =>
  renderServed(<InvitePage />, { url: `/confirm-invite?inviteToken=${invite}`, path: '/confirm-invite' }, (request) =>
    request.method === 'GET' ? check : answer,
  );

describe('invite acceptance (spec §4)', () => {
  it(
    'calls sign-up with the invite at 30, shows success at 100, then goes on after 3 s',
    { timeout: 15_000 },
    async () => {
      const session = {
        token: fakeSessionToken(),
        profiles: [{ _id: 'p1', type: 'PERSONAL', info: { first_name: '', last_name: '' } }],
      };
      const { router, progressAtCall, requests } = await open({
        status: 201,
        body: { email: 'maria@gmail.com', message: 'ok', ...session },
      });
      expect(await screen.findByRole('heading', { name: 'Accepting your invitation' })).toBeVisible();
      expect(await screen.findByRole('heading', { name: 'Invitation accepted' }, { timeout: 7000 })).toBeVisible();
      // Done: the bar gives way to the outcome.
      expect(screen.queryByRole('progressbar')).toBeNull();
      // The call leaves on the tick that reaches 30 (the bar may not have re-rendered yet when it arrives).
      const signups = requests.flatMap((r, i) => (r.method === 'POST' ? [{ ...r, progress: progressAtCall[i] }] : []));
      expect(signups).toHaveLength(1);
      expect(['20', '30']).toContain(signups[0]!.progress);
      expect(JSON.parse(signups[0]!.body)).toEqual({ email: 'maria@gmail.com', invite_token: invite });
      expect(router.state.location.pathname).toBe('/confirm-invite');
      await waitFor(() => expect(router.state.location.pathname).toBe('/user/welcome'), { timeout: 4000 });
      expect(localStorage.getItem('authorization')).toBe(session.token);
    },
  );

  // The token names the invitee only; the server names who invites and the team.
  it(
    'says who invites and to which team while the invitation is pending, in the place of the waiting line',
    {
      timeout: 15_000,
    },
    async () => {
      const { requests } = await open(
        { status: 201, body: { email: 'maria@gmail.com', message: 'ok' } },
        {
          status: 200,
          body: { email: 'maria@gmail.com', status: 'pending', inviter: 'Grace Hopper', team: 'contoso.com' },
        },
      );
      expect(await screen.findByText('Grace Hopper invited you to join the contoso.com team.')).toBeVisible();
      expect(screen.queryByText('One moment while we check your invitation…')).toBeNull();
      expect(requests[0]!.url).toBe(`/api/invite/validate?inviteToken=${encodeURIComponent(invite)}`);
      expect(await screen.findByRole('heading', { name: 'Invitation accepted' }, { timeout: 7000 })).toBeVisible();
      expect(screen.getByText('Grace Hopper invited you to join the contoso.com team.')).toBeVisible();
    },
  );

  it(
    'names no one when the check does not (an administrator invited, or the check failed)',
    {
      timeout: 15_000,
    },
    async () => {
      await open(
        { status: 201, body: { email: 'maria@gmail.com', message: 'ok' } },
        { status: 200, body: { email: 'maria@gmail.com', status: 'pending', inviter: null, team: 'gmail.com' } },
      );
      expect(await screen.findByText('One moment while we check your invitation…')).toBeVisible();
      expect(await screen.findByRole('heading', { name: 'Invitation accepted' }, { timeout: 7000 })).toBeVisible();
      expect(screen.queryByText(/invited you to join/)).toBeNull();
    },
  );

  it('shows already accepted on 409', async () => {
    await open({ status: 409, body: { error_code: 'ERR_INVITE_ALREADY_ACCEPTED', message: 'x' } });
    expect(
      await screen.findByRole('heading', { name: 'Invitation already accepted' }, { timeout: 4000 }),
    ).toBeVisible();
  });

  it('shows expired when the server says the invite expired', async () => {
    await open({ status: 400, body: { error_code: 'ERR_INVITE_EXPIRED', message: 'x' } });
    expect(await screen.findByRole('heading', { name: 'Invitation expired' }, { timeout: 4000 })).toBeVisible();
  });

  it('shows the error title and the server message for other errors', async () => {
    await open({ status: 400, body: { error_code: 'ERR_SOMETHING_NEW', message: 'Something the server says.' } });
    expect(
      await screen.findByRole('heading', { name: 'Could not accept the invitation' }, { timeout: 4000 }),
    ).toBeVisible();
    expect(screen.getByText('Something the server says.')).toBeVisible();
  });

  const expiredToken = (email: string) =>
    `${b64({ alg: 'HS256' })}.${b64({ email, exp: Math.floor(Date.now() / 1000) - 60 })}.c2ln`;
  const openExpired = (email: string, check: Answer) =>
    renderServed(
      <InvitePage />,
      { url: `/confirm-invite?inviteToken=${expiredToken(email)}`, path: '/confirm-invite' },
      check,
    );

  it('an expired invitation for a personal address says whom to ask and offers no sign-up (which refuses it)', async () => {
    await openExpired('maria@gmail.com', {
      status: 200,
      body: { email: 'maria@gmail.com', status: 'expired', personal: true, inviter: 'Grace Hopper', team: 'gmail.com' },
    });
    expect(await screen.findByRole('heading', { name: 'Invitation expired' })).toBeVisible();
    expect(await screen.findByText(/ask Grace Hopper to invite you again/)).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Sign up' })).toBeNull();
    // Sign-in stays, quiet: a link, not a button.
    expect(screen.getByRole('link', { name: 'Sign in' }).className).not.toContain('btn');
  });

  it('an administrator’s expired invitation for a personal address sends the person to that administrator', async () => {
    await openExpired('maria@gmail.com', {
      status: 200,
      body: { email: 'maria@gmail.com', status: 'expired', personal: true, inviter: null, team: 'gmail.com' },
    });
    expect(await screen.findByText(/ask the administrator who invited you/)).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Sign up' })).toBeNull();
  });

  it('an expired invitation for a work address names the inviter and keeps sign-up as the main action', async () => {
    await openExpired('maria@contoso.com', {
      status: 200,
      body: {
        email: 'maria@contoso.com',
        status: 'expired',
        personal: false,
        inviter: 'Grace Hopper',
        team: 'contoso.com',
      },
    });
    expect(await screen.findByText(/Ask Grace Hopper for a new one/)).toBeVisible();
    expect((await screen.findByRole('link', { name: 'Sign up' })).className).toContain('btn--primary');
  });

  it('keeps one card from checking to expired (its place is measured in the e2e spec)', async () => {
    await open({ status: 400, body: { error_code: 'ERR_INVITE_EXPIRED', message: 'x' } });
    const card = (await screen.findByRole('heading', { name: 'Accepting your invitation' })).parentElement!;
    expect(card.className).toContain('invite-card');
    await screen.findByRole('heading', { name: 'Invitation expired' }, { timeout: 4000 });
    expect(screen.getByRole('heading', { name: 'Invitation expired' }).parentElement).toBe(card);
  });

  it('a broken link offers sign-in as the one button and sign-up as a quiet link, after saying to ask for a new link', async () => {
    await renderServed(<InvitePage />, { url: '/confirm-invite', path: '/confirm-invite' }, () => ({
      status: 404,
      body: {},
    }));
    expect(await screen.findByRole('heading', { name: 'Could not accept the invitation' })).toBeVisible();
    expect(screen.getByText(/Ask the person who invited you for a new link/)).toBeVisible();
    const links = screen.getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Sign in', 'Sign up']);
    expect(links[0]!.className).toContain('btn--primary');
    expect(links[1]!.className).not.toContain('btn');
  });
});
