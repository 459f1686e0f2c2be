import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderScreen, serveApi } from '../../components/testing';
import SecondStep from './second-step';

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const pending = { pendingToken: 'p-1', email: 'ada@contoso.com', trustAllowed: true };

describe('the second step of a sign-in', () => {
  it('says which method it asks for: the app, then a recovery code', async () => {
    server = await serveApi(() => ({ status: 200 }));
    await renderScreen(<SecondStep pending={pending} onExpired={() => undefined} />, { url: '/user/login' });
    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    expect(screen.getByText(/from your authenticator app for/)).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    expect(await screen.findByRole('heading', { name: 'Enter a recovery code' })).toBeVisible();
    expect(screen.getByText(/Enter one of the recovery codes you saved for/)).toBeVisible();
    expect(screen.queryByText(/authenticator app for/)).toBeNull();
    // One primary action: the recovery code's Continue; back is a quiet link.
    expect([...document.querySelectorAll('.btn--primary')].map((b) => b.textContent)).toEqual(['Continue']);
    expect(screen.getByRole('button', { name: 'Back to sign-in' }).className).toContain('btn--link');
  });

  it('asks the server to trust this browser only when the box is ticked', async () => {
    server = await serveApi(() => ({ status: 400, body: { error_code: 'ERR_SECOND_STEP_INVALID', message: 'x' } }));
    await renderScreen(<SecondStep pending={pending} onExpired={() => undefined} />, { url: '/user/login' });
    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    const field = await screen.findByLabelText(/^Recovery code/);
    fireEvent.change(field, { target: { value: 'abcde-fghij' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(server!.requests).toHaveLength(1));
    expect(JSON.parse(server.requests[0]!.body)).not.toHaveProperty('trust_browser');

    fireEvent.click(screen.getByRole('checkbox', { name: /Trust this browser for 30 days/ }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Continue' })).not.toBeDisabled());
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(server!.requests).toHaveLength(2));
    expect(JSON.parse(server.requests[1]!.body)).toMatchObject({ code: 'abcde-fghij', trust_browser: true });
  });

  it('offers no trust where the domain forbids it', async () => {
    server = await serveApi(() => ({ status: 200 }));
    await renderScreen(<SecondStep pending={{ ...pending, trustAllowed: false }} onExpired={() => undefined} />, {
      url: '/user/login',
    });
    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('puts the trust box after the code boxes and sends it when ticked before the sixth digit', async () => {
    server = await serveApi(() => ({ status: 400, body: { error_code: 'ERR_SECOND_STEP_INVALID', message: 'x' } }));
    await renderScreen(<SecondStep pending={pending} onExpired={() => undefined} />, { url: '/user/login' });
    const box = await screen.findByRole('checkbox', { name: /Trust this browser for 30 days/ });
    const first = screen.getByLabelText('Digit 1 of 6');
    // Reading order: the code comes first, the box follows it.
    expect(first.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    '12345'
      .split('')
      .forEach((d, i) => fireEvent.change(screen.getByLabelText(`Digit ${i + 1} of 6`), { target: { value: d } }));
    fireEvent.click(box);
    fireEvent.change(screen.getByLabelText('Digit 6 of 6'), { target: { value: '6' } });
    await waitFor(() => expect(server!.requests).toHaveLength(1));
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ code: '123456', trust_browser: true });
  });

  it('speaks only of recovery codes when a recovery code is wrong', async () => {
    server = await serveApi(() => ({ status: 400, body: { error_code: 'ERR_SECOND_STEP_INVALID', message: 'x' } }));
    await renderScreen(<SecondStep pending={pending} onExpired={() => undefined} />, { url: '/user/login' });
    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    fireEvent.change(await screen.findByLabelText(/^Recovery code/), { target: { value: 'abcde-fghij' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/This recovery code is not valid/)).toBeVisible();
    expect(screen.queryByText(/authenticator app/)).toBeNull();
    // Said at the field, which is marked invalid and described by it, once (not under the trust box).
    const field = screen.getByLabelText(/^Recovery code/);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby')!.split(' ').at(-1)!)?.textContent).toMatch(
      /This recovery code is not valid/,
    );
    expect(screen.getAllByText(/This recovery code is not valid/)).toHaveLength(1);
    // Under the field itself (its own block), not below the trust box.
    expect(field.closest('.field')).toHaveTextContent(/This recovery code is not valid/);
    expect(screen.getByRole('checkbox', { name: /Trust this browser/ }).closest('.field')).not.toHaveTextContent(
      /not valid/,
    );
    await waitFor(() => expect(document.activeElement).toBe(field));
  });
});
