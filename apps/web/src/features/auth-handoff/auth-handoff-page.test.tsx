import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderScreen } from '../../components/testing';
import AuthHandoffPage from './auth-handoff-page';

describe('/auth hand-off', () => {
  it('a link that no longer works: the heading says so once, the text says why, the way on is sign-in', async () => {
    await renderScreen(<AuthHandoffPage />, { url: '/auth?token=not-a-token', path: '/auth' });
    const heading = await screen.findByRole('heading', { name: 'This sign-in link has expired' });
    expect(heading).toBeVisible();
    // No alert repeating the heading in other words.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText(/work once, and only for a few minutes/)).toBeVisible();
    expect(document.body.textContent).not.toMatch(/not valid or has expired/);
    expect(screen.getByRole('link', { name: 'Go to sign-in' })).toHaveAttribute('href', '/user/login');
    // The token has left the address.
    expect(window.location.search).toBe('');
  });
});
