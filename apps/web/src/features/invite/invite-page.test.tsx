import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeSessionToken, renderServed, type Answer } from '../../components/testing';
import InvitePage from './invite-page';

const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const invite = `${b64({ alg: 'HS256' })}.${b64({ email: 'maria@gmail.com', exp: Math.floor(Date.now() / 1000) + 600 })}.c2ln`;

/** Serves `answer` for the sign-up and records where the progress bar stood when the call arrived. */
const open = (answer: Answer) =>
  renderServed(<InvitePage />, { url: `/confirm-invite?inviteToken=${invite}`, path: '/confirm-invite' }, answer);

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
      expect(await screen.findByRole('heading', { name: 'Accepting your invitation' })).toBeTruthy();
      expect(await screen.findByRole('heading', { name: 'Invitation accepted' }, { timeout: 7000 })).toBeTruthy();
      // The call leaves on the tick that reaches 30 (the bar may not have re-rendered yet when it arrives).
      expect(progressAtCall).toHaveLength(1);
      expect(['20', '30']).toContain(progressAtCall[0]);
      expect(JSON.parse(requests[0]!.body)).toEqual({ email: 'maria@gmail.com', invite_token: invite });
      expect(router.state.location.pathname).toBe('/confirm-invite');
      await waitFor(() => expect(router.state.location.pathname).toBe('/user/welcome'), { timeout: 4000 });
      expect(localStorage.getItem('authorization')).toBe(session.token);
    },
  );

  it('shows already accepted on 409', async () => {
    await open({ status: 409, body: { error_code: 'ERR_INVITE_ALREADY_ACCEPTED', message: 'x' } });
    expect(await screen.findByRole('heading', { name: 'Invitation already accepted' }, { timeout: 4000 })).toBeTruthy();
  });

  it('shows expired when the server says the invite expired', async () => {
    await open({ status: 400, body: { error_code: 'ERR_INVITE_EXPIRED', message: 'x' } });
    expect(await screen.findByRole('heading', { name: 'Invitation expired' }, { timeout: 4000 })).toBeTruthy();
  });

  it('shows the error title and the server message for other errors', async () => {
    await open({ status: 400, body: { error_code: 'ERR_SOMETHING_NEW', message: 'Something the server says.' } });
    expect(
      await screen.findByRole('heading', { name: 'Could not accept the invitation' }, { timeout: 4000 }),
    ).toBeTruthy();
    expect(screen.getByText('Something the server says.')).toBeTruthy();
  });
});
