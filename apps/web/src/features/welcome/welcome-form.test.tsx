import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeSessionToken, renderScreen, serveApi } from '../../components/testing';
import WelcomeForm from './welcome-form';

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Fills the welcome form as a person does (first name `first`, Lovelace, a password, the terms) and sends it. */
async function register(first = 'Ada') {
  fireEvent.change(await screen.findByLabelText(/First name/), { target: { value: first } });
  fireEvent.change(screen.getByLabelText(/Last name/), { target: { value: 'Lovelace' } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'secret-1' } });
  fireEvent.click(screen.getByRole('checkbox'));
  fireEvent.click(screen.getByRole('button', { name: 'Register' }));
}

describe('welcome screen', () => {
  it('gives up after 6000 ms on the authenticated call with a clear message', { timeout: 15_000 }, async () => {
    server = await serveApi(() => ({ status: 200, hang: true }));
    localStorage.setItem('authorization', fakeSessionToken());
    await renderScreen(<WelcomeForm />, { url: '/user/welcome' });
    await register();
    expect(screen.getByRole('button', { name: 'Register' }).hasAttribute('disabled')).toBe(true);
    expect(await screen.findByText(/took too long/, {}, { timeout: 9000 })).toBeVisible();
    expect(server.requests[0]?.authorization).toMatch(/^Bearer /);
  });

  it('says the privacy policy in the consent line, not as a lone link under it', async () => {
    localStorage.setItem('authorization', fakeSessionToken());
    await renderScreen(<WelcomeForm />, { url: '/user/welcome' });
    const consent = await screen.findByRole('checkbox', { name: /accept the terms of use/ });
    const label = document.querySelector(`label[for="${consent.id}"]`)!;
    expect(label).toHaveTextContent(
      'I have read and accept the terms of use. Our privacy policy says how we use your data.',
    );
    // One privacy link on the page, and it is the one in the label.
    const privacy = [...document.querySelectorAll('a')].filter((a) => /privacy policy/i.test(a.textContent ?? ''));
    expect(privacy).toHaveLength(1);
    expect(label.contains(privacy[0]!)).toBe(true);
  });

  it('checks the password length on blur and asks for the terms', async () => {
    localStorage.setItem('authorization', fakeSessionToken());
    await renderScreen(<WelcomeForm />, { url: '/user/welcome' });
    const password = await screen.findByLabelText(/^Password/);
    fireEvent.change(password, { target: { value: 'abc' } });
    fireEvent.blur(password);
    expect(await screen.findByText('The password must be between 6 and 64 characters.')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('You must accept the terms of use.')).toBeVisible();
  });

  it('an answer whose session cannot be stored is a Request Error, not a way on', async () => {
    server = await serveApi(() => ({ status: 200, body: { token: 'not-a-jwt', profiles: [] } }));
    localStorage.setItem('authorization', fakeSessionToken());
    const router = await renderScreen(<WelcomeForm />, { url: '/user/welcome' });
    await register();
    expect(await screen.findByText('Request Error')).toBeVisible();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Register' }).hasAttribute('disabled')).toBe(false));
    expect(router.state.location.pathname).toBe('/user/welcome');
  });

  it('refuses a name with a bidi override before asking the server, with the localized catalogue text', async () => {
    server = await serveApi(() => ({ status: 200, body: {} }));
    localStorage.setItem('authorization', fakeSessionToken());
    await renderScreen(<WelcomeForm />, { url: '/user/welcome' });
    await register('Ada\u202egpj.exe');
    expect(await screen.findByText(/Names may have up to 100 characters/)).toBeVisible();
    expect(server.requests).toHaveLength(0);
  });

  it('names each missing field; the terms sentence ends after its link', async () => {
    localStorage.setItem('authorization', fakeSessionToken());
    await renderScreen(<WelcomeForm />, { url: '/user/welcome' });
    fireEvent.click(await screen.findByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Enter your first name.')).toBeVisible();
    expect(screen.getByText('Enter your last name.')).toBeVisible();
    expect(screen.getByText('Choose a password.')).toBeVisible();
    expect(screen.getByText('You must accept the terms of use.')).toBeVisible();
    expect(screen.queryByText(/fill in all fields/)).toBeNull();
    const label = document.querySelector(`label[for="${screen.getByRole('checkbox').id}"]`);
    expect(label?.textContent).toBe(
      'I have read and accept the terms of use. Our privacy policy says how we use your data.',
    );
  });
});

describe('terms sentence in every language', () => {
  it('puts the link where the language does (Hindi: the verb after the terms)', () => {
    for (const ns of ['welcome', 'guest']) {
      for (const lang of ['en', 'pt', 'es', 'hi', 'it']) {
        const texts = JSON.parse(readFileSync(`src/locales/${lang}/${ns}.json`, 'utf8'));
        expect(typeof texts.termsAfter, `${lang}/${ns}`).toBe('string');
      }
      const hi = JSON.parse(readFileSync(`src/locales/hi/${ns}.json`, 'utf8'));
      expect(`${hi.termsBefore} ${hi.termsLink} ${hi.termsAfter}`).toBe(
        'मैंने उपयोग की शर्तें पढ़ ली हैं और मैं उन्हें स्वीकार करता/करती\u00a0हूँ।',
      );
    }
  });
});
