import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderScreen, serveApi, type Answer } from '../../components/testing';
import { Address } from '../../components/address';
import CodeCheckForm from './code-check-form';

let server: Awaited<ReturnType<typeof serveApi>> | null = null;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = null;
});

const error = (status: number, code: string): Answer => ({ status, body: { error_code: code, message: 'x' } });
const sendAgain = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Send again' });
/** A minute passes on the screen's clock (only Date and the interval: the API server keeps real time). */
const aMinuteLater = () =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(61_000);
  });

async function open(answer: (path: string) => Answer) {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  server = await serveApi((req) => answer(req.url ?? ''));
  localStorage.setItem('tokenValidationEmail', 'ada.lovelace@tailspin-toys.test');
  await renderScreen(<CodeCheckForm />, { url: '/user/check-token' });
  await screen.findByLabelText('Digit 1 of 6');
}

describe('code screen: "Send again" waits a minute', () => {
  it('waits on arrival with a visible countdown that is not a live region, then sends once', async () => {
    await open(() => ({ status: 200, body: { message: 'sent' } }));
    expect(sendAgain().disabled).toBe(true);
    // Six boxes read as two groups of three: the fourth one starts the second group.
    const boxes = [1, 2, 3, 4, 5, 6].map((n) => screen.getByLabelText(`Digit ${n} of 6`));
    expect(boxes.map((b) => b.classList.contains('code-boxes__box--group'))).toEqual([
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
    const countdown = screen.getByTestId('resend-cooldown');
    expect(countdown).toHaveTextContent(/You can ask for another code in (60|59) seconds\./);
    // Read on demand, never announced each second.
    expect(countdown.closest('[aria-live], [role="status"], [role="alert"]')).toBeNull();
    await aMinuteLater();
    expect(sendAgain().disabled).toBe(false);
    // A quick double click: one request, then the wait starts again.
    fireEvent.click(sendAgain());
    fireEvent.click(sendAgain());
    await waitFor(() => expect(screen.getByTestId('resend-cooldown')).toBeInTheDocument());
    expect(sendAgain().disabled).toBe(true);
    expect(server!.requests.filter((r) => r.url.includes('resend'))).toHaveLength(1);
  });

  it('waits again after the server mailed a new code for an expired one', async () => {
    await open((path) => (path.includes('confirm') ? error(400, 'ERR_TOKEN_EXPIRED') : { status: 200 }));
    await aMinuteLater();
    expect(sendAgain().disabled).toBe(false);
    fireEvent.paste(screen.getByLabelText('Digit 1 of 6'), { clipboardData: { getData: () => '123456' } });
    expect(await screen.findByText(/Expired token/)).toBeVisible();
    expect(sendAgain().disabled).toBe(true);
    expect(screen.getByTestId('resend-cooldown')).toBeInTheDocument();
  });

  it('a send the server refuses inside the minute says so and waits, the boxes keep their place', async () => {
    await open(() => error(429, 'ERR_CODE_SENT_RECENTLY'));
    await aMinuteLater();
    fireEvent.click(sendAgain());
    expect(await screen.findByText(/A code was sent less than a minute ago/)).toBeVisible();
    expect(sendAgain().disabled).toBe(true);
  });
});

describe('Address', () => {
  it('is one piece of text: read whole, copied without a break', () => {
    const { container } = render(<Address email="ada.lovelace@tailspin-toys.test" />);
    const address = container.querySelector('.address')!;
    expect(address.textContent).toBe('ada.lovelace@tailspin-toys.test');
    expect(address.getAttribute('title')).toBe('ada.lovelace@tailspin-toys.test');
  });

  it('may break only before the "@": the local part and the domain each stay whole', () => {
    const { container } = render(<Address email="ada.lovelace@tailspin-toys.test" />);
    const parts = [...container.querySelectorAll('.address__part')].map((part) => part.textContent);
    expect(parts).toEqual(['ada.lovelace', '@tailspin-toys.test']);
    expect(container.querySelectorAll('.address wbr')).toHaveLength(1);
  });
});
