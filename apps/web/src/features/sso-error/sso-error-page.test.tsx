import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { renderScreen } from '../../components/testing';
import SsoErrorPage from './sso-error-page';

describe('/login-error-sso', () => {
  it('names the screen in the document title like the other screens', async () => {
    await renderScreen(<SsoErrorPage />, { url: '/login-error-sso', path: '/login-error-sso' });
    expect(
      await screen.findByRole('heading', { name: 'We couldn’t sign you in with single sign\u2011on' }),
    ).toBeVisible();
    await waitFor(() => expect(document.title).toMatch(/^We couldn’t sign you in with single sign\u2011on · /));
  });

  it('says why for a sign-in by another person with the address, and for a full free plan', async () => {
    for (const [reason, title] of [
      ['other-person', 'This address now belongs to someone else'],
      ['no-seats', 'Your organization has no free seat left'],
      ['no-email', 'Your organization’s sign-in did not send your email address'],
      ['misconfigured', 'Single sign\u2011on is not set up correctly'],
    ] as const) {
      await renderScreen(<SsoErrorPage />, {
        url: `/login-error-sso?reason=${reason}`,
        path: '/login-error-sso',
      });
      expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
      // Nothing the person can retry: the way out is back to sign-in (IT must act first).
      if (reason === 'no-email' || reason === 'misconfigured')
        expect(screen.getByRole('link', { name: 'Back to sign-in' })).toBeTruthy();
      cleanup();
    }
  });
});
