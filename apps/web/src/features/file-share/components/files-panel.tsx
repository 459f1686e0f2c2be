import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { PageLoading } from '../../../components/page-loading';
import { useErrorMessage } from '../../../lib/use-error-message';
import { useFiles } from '../hooks/use-files';
import { FileItem } from './file-item';
import { StorageUsage } from './storage-usage';
import { UploadControl } from './upload-control';
import './files.css';

/** Signed-in home: upload files, share them by link with an expiry, copy and revoke links. */
export function FilesPanel() {
  const { t } = useTranslation('files');
  const message = useErrorMessage();
  const { state, reload, added, removed } = useFiles();
  return (
    <section className="card stack files" aria-labelledby="files-title">
      <div>
        <h2 id="files-title">{t('title')}</h2>
        <p className="muted files__intro">{t('intro')}</p>
      </div>
      <UploadControl onUploaded={added} />
      {state.status === 'ready' && <StorageUsage usedBytes={state.usedBytes} quotaBytes={state.quotaBytes} />}
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && (
        <div className="stack">
          <Alert>{message(state.error)}</Alert>
          <Button variant="secondary" onClick={reload}>
            {t('retry')}
          </Button>
        </div>
      )}
      {state.status === 'ready' &&
        (state.files.length === 0 ? (
          <p className="muted">{t('empty')}</p>
        ) : (
          <ul className="files__list" aria-label={t('listLabel')}>
            {state.files.map((file) => (
              <FileItem key={file._id} file={file} onDeleted={removed} />
            ))}
          </ul>
        ))}
    </section>
  );
}
