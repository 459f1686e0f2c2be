import { useId, useState } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import type { StoredFile } from '@suite/contract/core';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { useDialog } from '../../../components/confirm-dialog';
import { formatBytes } from '../../../lib/format-bytes';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { deleteFile } from '../api/files';
import { SharePanel } from './share-panel';
import '../../../components/destructive.css';

/** One uploaded file: its details, its share links (opened on demand) and deletion. */
export function FileItem({ file, onDeleted }: { file: StoredFile; onDeleted: (fileId: string) => void }) {
  const { t, i18n } = useTranslation('files');
  const { confirm } = useDialog();
  const [open, setOpen] = useState(false);
  const submit = useFormSubmit({ movesOn: false });
  const titleId = useId();
  const panelId = useId();
  const uploaded = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(file.created_at),
  );

  async function remove() {
    const yes = await confirm({
      title: t('deleteNamedTitle', { name: file.name }),
      text: t('deleteText', { name: file.name }),
      primaryLabel: t('delete'),
      secondaryLabel: t('keep'),
      variant: 'danger',
    });
    if (!yes) return;
    await submit.run(null, async () => {
      await deleteFile(file._id);
      onDeleted(file._id);
    });
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
          {/* Red like every destructive action, outlined: it asks first, so it is not the final step. */}
          <Button variant="quiet-danger" onClick={() => void remove()} loading={submit.busy}>
            {t('delete')}
          </Button>
        </div>
      </div>
      {submit.error !== null && <Alert>{submit.error}</Alert>}
      <div id={panelId} hidden={!open}>
        {open && <SharePanel file={file} />}
      </div>
    </li>
  );
}
