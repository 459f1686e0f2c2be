import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderScreen } from '../../components/testing';
import SsoErrorPage from './sso-error-page';

describe('/login-error-sso', () => {
  it('names the screen in the document title like the other screens', async () => {
    await renderScreen(<SsoErrorPage />, { url: '/login-error-sso', path: '/login-error-sso' });
    expect(await screen.findByRole('heading', { name: "We couldn't sign you in with single sign-on" })).toBeVisible();
    await waitFor(() => expect(document.title).toMatch(/^We couldn't sign you in with single sign-on · /));
  });
});
