import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderScreen } from '../../components/testing';
import GuestPage from './guest-page';

afterEach(cleanup);

describe('/guest', () => {
  it('opened with no meeting says so at once and asks for the code or link, not for a name', async () => {
    const router = await renderScreen(<GuestPage />, { url: '/guest', path: '/guest' });
    expect(await screen.findByText(/does not say which meeting to join/)).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Your name' })).toBeNull();
    const code = screen.getByRole('textbox', { name: 'Meeting code or link' });
    expect(code).toHaveFocus();
    fireEvent.change(code, { target: { value: 'not a meeting' } });
    fireEvent.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByText('Enter a meeting code like abc-defg-hij or a meeting link.')).toBeVisible();
    expect(router.state.location.pathname).toBe('/guest');
    fireEvent.change(code, { target: { value: 'https://meet.example.com/meet/ABC-DEFG-HIJ?x=1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Join' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/meet/abc-defg-hij'));
  });

  it('with a meeting to go to keeps the spec form: name, terms, Continue', async () => {
    await renderScreen(<GuestPage />, {
      url: `/guest?vc_link=${encodeURIComponent('https://meet.example.com/room.html?room=x')}`,
      path: '/guest',
      config: { meetDomain: 'https://meet.example.com' },
    });
    expect(await screen.findByRole('textbox', { name: 'Your name' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeVisible();
    expect(screen.queryByText(/does not say which meeting to join/)).toBeNull();
  });
});
