import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { openSecurityPanel } from './security-panel-testing';

const CODES = Array.from({ length: 10 }, (_, i) => `abcde-fgh${String(i).padStart(2, '0')}`);

/** Presses "Turn on" as a keyboard user would (focused first) and answers the set-up dialog. */
async function turnOn() {
  const button = await screen.findByRole('button', { name: 'Turn on' });
  button.focus();
  fireEvent.click(button);
  const dialog = await screen.findByRole('dialog', { name: 'Set up two-step verification' });
  return { button, dialog };
}

const typeCode = (dialog: HTMLElement, code: string) =>
  code
    .split('')
    .forEach((digit, i) =>
      fireEvent.change(within(dialog).getByLabelText(`Digit ${i + 1} of 6`), { target: { value: digit } }),
    );

describe('turning on two-step verification: one focused dialog', () => {
  it('shows the QR code, the key and the code boxes in one dialog with one primary action', async () => {
    const api = await openSecurityPanel(() => undefined);
    const { dialog } = await turnOn();
    expect(within(dialog).getByRole('img', { name: /QR code/ })).toBeVisible();
    expect(within(dialog).getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP');
    expect(within(dialog).getByRole('group', { name: 'Code from the authenticator app' })).toBeVisible();
    const buttons = within(dialog).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Cancel', 'Confirm']);
    expect(buttons.filter((b) => !b.className.includes('secondary'))).toHaveLength(1);
    // An incomplete code is not sent: the dialog says what is missing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      'Enter the 6-digit code the app shows.',
    );
    expect(api.requests.some((r) => r.url === '/api/v2/user/totp/enable')).toBe(false);
  });

  it('Escape closes it, changes nothing, and gives the focus back to "Turn on"', async () => {
    await openSecurityPanel(() => undefined);
    const { dialog } = await turnOn();
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const again = screen.getByRole('button', { name: 'Turn on' });
    expect(document.activeElement).toBe(again);
    expect(screen.getByText('Off')).toBeVisible();
  });

  it('a wrong code stays in the dialog; the right one closes it and shows the recovery codes', async () => {
    await openSecurityPanel((req, body) => {
      if (req.url !== '/api/v2/user/totp/enable') return undefined;
      return (JSON.parse(body) as { code: string }).code === '123456'
        ? { status: 200, body: { recovery_codes: CODES } }
        : { status: 400, body: { error_code: 'ERR_TOTP_CODE_INVALID', message: 'That code is not right.' } };
    });
    const { dialog } = await turnOn();
    typeCode(dialog, '000000');
    expect(await within(dialog).findByRole('alert')).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Set up two-step verification' })).toBe(dialog);
    typeCode(dialog, '123456');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByTestId('recovery-codes')).toBeVisible();
    expect(screen.getByText('Two-step verification is on.')).toBeVisible();
  });
});
