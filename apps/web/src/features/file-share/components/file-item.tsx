import { useId, useState } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import type { StoredFile } from '@suite/contract/core';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { useDialog } from '../../../components/confirm-dialog';
import { formatBytes } from '../../../lib/format-bytes';
import { useErrorMessage } from '../../../lib/use-error-message';
import { deleteFile } from '../api/files';
import { SharePanel } from './share-panel';

/** One uploaded file: its details, its share links (opened on demand) and deletion. */
export function FileItem({ file, onDeleted }: { file: StoredFile; onDeleted: (fileId: string) => void }) {
  const { t, i18n } = useTranslation('files');
  const message = useErrorMessage();
  const { confirm } = useDialog();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null); // words, or a failure put in words at render
  const titleId = useId();
  const panelId = useId();
  const uploaded = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(file.created_at),
  );

  async function remove() {
    const yes = await confirm({
      title: t('deleteTitle'),
      text: t('deleteText', { name: file.name }),
      primaryLabel: t('delete'),
      secondaryLabel: t('keep'),
      variant: 'danger',
    });
    if (!yes) return;
    setBusy(true);
    setError(null);
    try {
      await deleteFile(file._id);
      onDeleted(file._id);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <li className="item-list__item" aria-labelledby={titleId}>
      <div className="item-list__head">
        <div className="item-list__meta">
          <h3 id={titleId} className="item-list__name">
            {file.name}
          </h3>
          <span className="muted files__details">
            {formatBytes(file.size, i18n.language)} · {uploaded}
          </span>
        </div>
        <div className="row files__actions">
          <Button variant="secondary" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
            {open ? t('hideLinks') : t('share')}
          </Button>
          <Button variant="link" onClick={() => void remove()} loading={busy}>
            {t('delete')}
          </Button>
        </div>
      </div>
      {error !== null && <Alert>{message(error)}</Alert>}
      <div id={panelId} hidden={!open}>
        {open && <SharePanel file={file} />}
      </div>
    </li>
  );
}
