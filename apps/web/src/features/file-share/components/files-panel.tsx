import { useTranslation } from '../../../lib/i18n-react';
import { LoadError } from '../../../components/load-error';
import { PageLoading } from '../../../components/page-loading';
import { useFiles } from '../hooks/use-files';
import { FileItem } from './file-item';
import { StorageUsage } from './storage-usage';
import { UploadControl } from './upload-control';
import '../../../components/item-list.css';
import './files.css';

/** Signed-in home: upload files, share them by link with an expiry, copy and revoke links. */
export function FilesPanel() {
  const { t } = useTranslation('files');
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
      {state.status === 'error' && <LoadError error={state.error} retryLabel={t('retry')} onRetry={reload} />}
      {state.status === 'ready' &&
        (state.files.length === 0 ? (
          <p className="muted">{t('empty')}</p>
        ) : (
          <ul className="item-list" aria-label={t('listLabel')}>
            {state.files.map((file) => (
              <FileItem key={file._id} file={file} onDeleted={removed} />
            ))}
          </ul>
        ))}
    </section>
  );
}
