import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { ApiError } from '../lib/api-client';
import { renderScreen } from './testing';
import { useFreshProof } from './fresh-proof';
import { Button } from './button';

/** A change the server refuses for want of a recent proof: it opens the dialog with `methods`. */
function Change({ methods }: { methods: ('password' | 'totp')[] }) {
  const { withProof, dialog } = useFreshProof(methods);
  const change = () =>
    void withProof(() => Promise.reject(new ApiError(403, 'ERR_PROOF_REQUIRED', ''))).catch(() => undefined);
  return (
    <>
      <Button onClick={change}>Change</Button>
      {dialog}
    </>
  );
}

const openDialog = async (methods: ('password' | 'totp')[]) => {
  await renderScreen(<Change methods={methods} />, { url: '/change', path: '/change' });
  fireEvent.click(screen.getByRole('button', { name: 'Change' }));
  return screen.findByRole('dialog', { name: 'Confirm it’s you' });
};

describe('the fresh-proof dialog asks for what it offers', () => {
  it('only a password offered: an empty confirm asks for the password, not for "a code"', async () => {
    const dialog = await openDialog(['password']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Enter your password\.$/);
  });

  it('the app code chosen: an empty confirm asks for the code', async () => {
    const dialog = await openDialog(['password', 'totp']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use a code from your app instead' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Enter the code from your app\.$/);
  });
});
