import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { renderScreen } from '../components/testing';
import UserLayout from './user-layout';

afterEach(() => {
  vi.unstubAllGlobals();
});

// Forms are lazy chunks: the first import of one can take a while on a busy machine.
const heading = (name: string) => screen.findByRole('heading', { level: 1, name }, { timeout: 5000 });

describe('/user layout', () => {
  it('puts the caret in the first field of the first form, then of each new form', async () => {
    const router = await renderScreen(<UserLayout />, { url: '/user/login' });
    await heading('Sign in');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /^Email/ })));

    await act(() => router.navigate('/user/recovery-password'));
    await heading('Recover your password');
    await waitFor(() => expect((document.activeElement as HTMLInputElement).name).toBe('email'));
    expect(document.activeElement?.closest('.fade--out')).toBeNull();

    await act(() => router.navigate('/user/signup'));
    await heading('Create your account');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /^Work email/ })));
  });

  it('the code screen keeps its own focus on the first box', async () => {
    localStorage.setItem('tokenValidationEmail', 'ada@contoso.com');
    const router = await renderScreen(<UserLayout />, { url: '/user/recovery-password' });
    await heading('Recover your password');
    await act(() => router.navigate('/user/check-token-recovery'));
    const first = await screen.findByLabelText('Digit 1 of 6', {}, { timeout: 5000 });
    await waitFor(() => expect(document.activeElement).toBe(first));
    // Once the previous form has faded out and gone, nothing has taken the focus away.
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Recover your password' })).toBeNull());
    expect(document.activeElement).toBe(first);
  });

  it('arriving from another page of the app puts the caret in the first field too', async () => {
    await renderScreen(<UserLayout />, { url: '/user/login', history: ['/confirm-invite'] });
    await heading('Sign in');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /^Email/ })));
  });

  it('cross-fades: the outgoing form stays, inert and hidden, for its fade-out, then goes', async () => {
    const router = await renderScreen(<UserLayout />, { url: '/user/login' });
    await heading('Sign in');
    await act(() => router.navigate('/user/signup'));
    const leaving = document.querySelector('.fade--out');
    expect(leaving?.textContent).toContain('Sign in');
    expect(leaving?.hasAttribute('inert')).toBe(true);
    expect(leaving?.getAttribute('aria-hidden')).toBe('true');
    // Hidden from the accessibility tree: only the new form's heading counts.
    await heading('Create your account');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    await waitFor(() => expect(document.querySelector('.fade--out')).toBeNull());
    expect(document.querySelectorAll('.fade')).toHaveLength(1);
  });

  it('with reduced motion the outgoing form goes at once', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('prefers-reduced-motion'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    const router = await renderScreen(<UserLayout />, { url: '/user/login' });
    await heading('Sign in');
    await act(() => router.navigate('/user/signup'));
    await heading('Create your account');
    expect(document.querySelector('.fade--out')).toBeNull();
  });

  it('the document title is the new screen’s, not reset by the form fading out', async () => {
    const router = await renderScreen(<UserLayout />, { url: '/user/login' });
    await heading('Sign in');
    await act(() => router.navigate('/user/signup'));
    await heading('Create your account');
    await waitFor(() => expect(document.querySelector('.fade--out')).toBeNull());
    expect(document.title).toMatch(/^Create your account · /);
  });

  it('sign-up and recovery carry a second panel for a single-sign-on domain, one that promises no code', async () => {
    const router = await renderScreen(<UserLayout />, { url: '/user/signup' });
    await heading('Create your account');
    // frame.css shows it instead of the code-promising one while the form says data-sso="required".
    expect(document.querySelector('.user-layout__panel--sso')?.textContent).toBe(
      'Your organization signs you in with single sign\u2011on: your first sign-in creates your account.',
    );
    await act(() => router.navigate('/user/recovery-password'));
    await heading('Recover your password');
    await waitFor(() =>
      expect(document.querySelector('.user-layout__panel--sso')?.textContent).toMatch(/keeps your password/),
    );
    await act(() => router.navigate('/user/login'));
    await heading('Sign in');
    await waitFor(() => expect(document.querySelector('.user-layout__panel--sso')).toBeNull());
  });
});
