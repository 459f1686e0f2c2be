import { describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { renderScreen, renderServed } from '../../components/testing';
import { carriedAddress } from '../../lib/carried-address';
import { discoverSso } from '../../lib/sso';
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
      expect(await screen.findByRole('heading', { name: title })).toBeVisible();
      // Nothing the person can retry: the way out is back to sign-in (IT must act first).
      if (reason === 'no-email' || reason === 'misconfigured')
        expect(screen.getByRole('link', { name: 'Back to sign-in' })).toBeVisible();
      cleanup();
    }
  });

  it('offers the password when the provider did not answer and the domain also takes one; not when SSO is the only way', async () => {
    for (const [domain, sso, offered] of [
      ['both.example', 'available', true],
      ['only.example', 'required', false],
    ] as const) {
      carriedAddress.set(`ada@${domain}`);
      const { requests } = await renderServed(
        <SsoErrorPage />,
        { url: '/login-error-sso?reason=unavailable', path: '/login-error-sso' },
        { status: 200, body: { sso } },
      );
      expect(await screen.findByRole('heading', { name: 'Your sign-in service did not answer' })).toBeVisible();
      await waitFor(() => expect(requests).toHaveLength(1));
      expect(JSON.parse(requests[0]!.body)).toEqual({ email: `ada@${domain}` });
      if (offered) {
        const link = await screen.findByRole('link', { name: 'Sign in with your password instead' });
        expect(link.getAttribute('href')).toBe('/user/login');
        // Still one primary action: trying single sign-on again.
        expect(screen.getByRole('link', { name: 'Try again' }).className).toContain('btn--primary');
      } else {
        // Once the page's own (cached) answer is in, nothing was added.
        await act(() => discoverSso(`ada@${domain}`));
        expect(screen.queryByRole('link', { name: 'Sign in with your password instead' })).toBeNull();
      }
      cleanup();
    }
  });

  it('asks nothing and offers no password without a carried address', async () => {
    window.sessionStorage.clear();
    const { requests } = await renderServed(
      <SsoErrorPage />,
      { url: '/login-error-sso?reason=unavailable', path: '/login-error-sso' },
      { status: 200, body: { sso: 'available' } },
    );
    expect(await screen.findByRole('heading', { name: 'Your sign-in service did not answer' })).toBeVisible();
    expect(requests).toHaveLength(0);
    expect(screen.queryByRole('link', { name: 'Sign in with your password instead' })).toBeNull();
  });
});
