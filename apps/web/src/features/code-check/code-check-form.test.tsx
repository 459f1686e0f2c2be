import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { loadTexts } from '../../lib/i18n';
import { fakeSessionToken, renderScreen, serveApi, type Answer } from '../../components/testing';
import CodeCheckForm from './code-check-form';

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  vi.restoreAllMocks();
  delete window.grecaptcha;
});

async function open(url: string, answer: (path: string, body: string) => Answer, captchaSiteKey = '') {
  server = await serveApi((req, body) => answer(req.url ?? '', body));
  localStorage.setItem('tokenValidationEmail', 'ada@contoso.com');
  const router = await renderScreen(<CodeCheckForm />, { url, config: { captchaSiteKey } });
  const first = await screen.findByLabelText('Digit 1 of 6');
  fireEvent.paste(first, { clipboardData: { getData: () => '123456' } });
  return router;
}

const error = (status: number, code: string): Answer => ({ status, body: { error_code: code, message: 'x' } });

describe('code check screen', () => {
  it('sign-up: a right code stores the session and goes to welcome', async () => {
    const session = {
      token: fakeSessionToken(),
      profiles: [{ _id: 'p1', type: 'PROFESSIONAL', info: { first_name: '', last_name: '' } }],
    };
    const router = await open('/user/check-token', () => ({ status: 200, body: session }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/welcome'));
    expect(JSON.parse(server!.requests[0]!.body)).toEqual({ token: '123456', email: 'ada@contoso.com' });
    expect(server!.requests[0]!.url).toBe('/api/v2/user/confirm');
    expect(localStorage.getItem('authorization')).toBe(session.token);
  });

  it('recovery: checks against the recovery endpoint and goes to update-password', async () => {
    const session = { token: fakeSessionToken(), profiles: [] };
    const router = await open('/user/check-token-recovery', () => ({ status: 200, body: session }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/update-password'));
    expect(server!.requests[0]!.url).toBe('/api/v2/user/forgot-password/confirm');
  });

  it('captcha step-up: asked for a captcha answer, the same code is sent again with one and signs in', async () => {
    // The reCAPTCHA script "loads" (happy-dom loads no scripts) and answers a token for the action.
    vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(node: T): T => {
      queueMicrotask(() => node.dispatchEvent(new Event('load')));
      return node;
    });
    const execute = vi.fn(async () => 'captcha-answer');
    window.grecaptcha = { ready: (callback) => callback(), execute };
    const session = { token: fakeSessionToken(), profiles: [] };
    const router = await open(
      '/user/check-token',
      (_, body) =>
        body.includes('captcha_token') ? { status: 200, body: session } : error(400, 'ERR_CAPTCHA_REQUIRED'),
      'site-key',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/welcome'));
    expect(execute).toHaveBeenCalledWith('site-key', { action: 'code' });
    expect(server!.requests.map((r) => JSON.parse(r.body) as unknown)).toEqual([
      { token: '123456', email: 'ada@contoso.com' },
      { token: '123456', email: 'ada@contoso.com', captcha_token: 'captcha-answer' },
    ]);
  });

  it('captcha step-up without a captcha answer (no site key): the localized explanation, one request', async () => {
    await loadTexts('en', 'errors');
    await open('/user/check-token', () => ({
      status: 400,
      body: { error_code: 'ERR_CAPTCHA_REQUIRED', message: 'server text' },
    }));
    const alert = await screen.findByText(
      (_, el) =>
        (el?.classList.contains('alert--error') ?? false) &&
        (el?.textContent ?? '').includes('Please confirm that you are not a robot.'),
    );
    expect(alert.textContent).not.toContain('server text');
    expect(server!.requests).toHaveLength(1);
  });

  it('max tries: the dialog offers Send again, which asks for a new code', async () => {
    await open('/user/check-token', (path) =>
      path.includes('resend') ? { status: 200, body: { message: 'sent' } } : error(400, 'ERR_MAX_TRIES_EXCEEDED'),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Max number of tries exceeded.');
    fireEvent.click(screen.getAllByRole('button', { name: 'Send again' }).find((b) => dialog.contains(b))!);
    // The address is its own unbreakable element inside the sentence.
    const sent = await screen.findByText((_, el) => el?.classList.contains('alert--success') ?? false);
    expect(sent.textContent).toContain('A new code was sent to ada@contoso.com');
    expect(server!.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'PUT /api/v2/user/confirm',
      'PUT /api/v2/user/resend_confirmation',
    ]);
  });

  it('an already confirmed address is pointed to the login', async () => {
    // The error texts load after the first paint; a user who types a code has them by the answer.
    await loadTexts('en', 'errors');
    await open('/user/check-token', () => error(400, 'ERR_USER_ALREADY_CONFIRMED'));
    // The catalogue texts load lazily: wait until the alert says it in the user's language.
    const alert = await screen.findByText(
      (_, el) =>
        (el?.classList.contains('alert--error') ?? false) &&
        (el?.textContent ?? '').includes('The user is already confirmed'),
    );
    expect(alert.textContent).toContain('Go to sign-in');
    expect(screen.getByRole('link', { name: 'Go to sign-in' }).getAttribute('href')).toBe('/user/login');
  });

  describe('"Back", the one way back (the spec\'s word), carrying the address', () => {
    const openAt = async (url: string) => {
      localStorage.setItem('tokenValidationEmail', 'ada@contoso.com');
      window.sessionStorage.clear();
      const router = await renderScreen(<CodeCheckForm />, { url, history: ['/user/login'] });
      // One quiet way back, not two that do the same thing.
      expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
      fireEvent.click(await screen.findByRole('link', { name: 'Back' }));
      return router;
    };

    it('opens sign-up with the address carried into its field', async () => {
      const router = await openAt('/user/check-token');
      await waitFor(() => expect(router.state.location.pathname).toBe('/user/signup'));
      expect(window.sessionStorage.getItem('carriedAddress')).toBe('ada@contoso.com');
    });

    it('opens the recovery form in recovery mode, the address carried too', async () => {
      const router = await openAt('/user/check-token-recovery');
      await waitFor(() => expect(router.state.location.pathname).toBe('/user/recovery-password'));
      expect(window.sessionStorage.getItem('carriedAddress')).toBe('ada@contoso.com');
    });
  });

  it('without a remembered address it asks to start again', async () => {
    await renderScreen(<CodeCheckForm />, { url: '/user/check-token' });
    expect(await screen.findByRole('link', { name: 'Start again' })).toBeVisible();
  });
});
