import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderScreen, serveApiForTest } from '../../components/testing';
import { hasTexts } from '../../lib/i18n';
import LoginForm from './login-form';

// The real English error texts, held until the test lets them arrive (they load just after the first paint).
const texts = vi.hoisted(() => {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { arrived, arrive: () => arrive() };
});
vi.mock('../../locales/en/errors.json', async (original) => {
  await texts.arrived;
  return original();
});

describe('an error answer that comes before the error texts', () => {
  it('is shown in the server’s words, then in the catalogue’s once the texts are in', async () => {
    await serveApiForTest(() => ({
      status: 401,
      body: { error_code: 'ERR_USER_NOT_CONFIRMED', message: 'Words of the server' },
    }));
    await renderScreen(<LoginForm />, { url: '/user/login' });
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'ada@contoso.com' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'secret-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    // The message, with the way out ("Send a new confirmation code") as a link inside it.
    expect((await screen.findByText('Words of the server')).closest('[role="alert"]')).not.toBeNull();
    expect(hasTexts('en', 'errors')).toBe(false);

    texts.arrive();
    expect(
      (await screen.findByText('Your email address is not confirmed yet.')).closest('[role="alert"]'),
    ).not.toBeNull();
    expect(screen.queryByText('Words of the server')).toBeNull();
    expect(hasTexts('en', 'errors')).toBe(true);
  });
});
