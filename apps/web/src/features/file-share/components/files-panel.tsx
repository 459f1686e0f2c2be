import { useTranslation } from '../../../lib/i18n-react';
import { Icon } from '../../../components/icon';
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
  const empty = state.status === 'ready' && state.files.length === 0;
  return (
    <section className="card stack files" aria-labelledby="files-title">
      <div>
        <h2 id="files-title">{t('title')}</h2>
        <p className="muted files__intro">{t('intro')}</p>
      </div>
      {/* With no file yet, the upload sits in a short empty state; the control stays the same element either
          way, so its "was uploaded" message survives the list appearing. */}
      <div className={empty ? 'files__empty' : 'files__top'}>
        {empty && (
          <>
            <Icon className="files__empty-icon">
              <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
              <path d="M14 3v5h5" />
            </Icon>
            <p className="files__empty-text">{t('empty')}</p>
          </>
        )}
        <UploadControl onUploaded={added} />
      </div>
      {state.status === 'ready' && !empty && <StorageUsage usedBytes={state.usedBytes} quotaBytes={state.quotaBytes} />}
      {state.status === 'loading' && <PageLoading />}
      {state.status === 'error' && <LoadError error={state.error} retryLabel={t('retry')} onRetry={reload} />}
      {state.status === 'ready' && !empty && (
        <ul className="item-list" aria-label={t('listLabel')}>
          {state.files.map((file) => (
            <FileItem key={file._id} file={file} onDeleted={removed} />
          ))}
        </ul>
      )}
    </section>
  );
}
