import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { polyfillDialog, renderScreen } from '../../../components/testing';
import { FileItem } from './file-item';

beforeAll(polyfillDialog);

const FILE = {
  _id: 'f1',
  name: 'budget.xlsx',
  content_type: 'text/plain',
  size: 2048,
  created_at: '2026-11-20T10:00:00Z',
};

describe('a file of the Files list', () => {
  it('shows "Delete" as a destructive action whose confirmation names the file; "Keep" deletes nothing', async () => {
    let deleted: string | null = null;
    await renderScreen(
      <ul>
        <FileItem file={FILE} onDeleted={(id) => (deleted = id)} />
      </ul>,
      { url: '/app/files', path: '/app/files' },
    );
    const item = await screen.findByRole('listitem', { name: 'budget.xlsx' });
    const button = within(item).getByRole('button', { name: 'Delete' });
    // One destructive style: a row's action is the quiet red outline; filled red is the dialog's confirm only.
    expect(button).toHaveClass('btn--quiet-danger');
    expect(button).not.toHaveClass('btn--danger');
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Delete “budget.xlsx”?' });
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toHaveClass('btn--danger');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep' }));
    expect(deleted).toBeNull();
  });
});
