import { describe, expect, it, vi, beforeAll } from 'vitest';
import { render, screen, fireEvent } from '@testing-library/react';
import { DialogProvider, useDialog } from './confirm-dialog';
import { polyfillDialog } from './testing';

beforeAll(polyfillDialog);

function Opener({ onAnswer }: { onAnswer: (v: boolean) => void }) {
  const { confirm } = useDialog();
  return (
    <button
      onClick={() =>
        void confirm({
          title: 'Send again?',
          text: 'A new code will be sent.',
          primaryLabel: 'Yes',
          secondaryLabel: 'No',
        }).then(onAnswer)
      }
    >
      open
    </button>
  );
}

describe('global confirm dialog', () => {
  it('shows title, text and two buttons, and resolves with the choice', async () => {
    const onAnswer = vi.fn();
    render(
      <DialogProvider>
        <Opener onAnswer={onAnswer} />
      </DialogProvider>,
    );
    fireEvent.click(screen.getByText('open'));
    // The dialog's view loads with the first dialog opened (never in an entry screen's first load).
    expect(await screen.findByText('Send again?')).toBeVisible();
    expect(screen.getByText('A new code will be sent.')).toBeVisible();
    fireEvent.click(screen.getByText('Yes'));
    await vi.waitFor(() => expect(onAnswer).toHaveBeenCalledWith(true));
    fireEvent.click(screen.getByText('open'));
    fireEvent.click(screen.getByText('No'));
    await vi.waitFor(() => expect(onAnswer).toHaveBeenLastCalledWith(false));
  });
});
