import { useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'wouter';
import { useTranslation } from '../../lib/i18n-react';
import { PATHS } from '../../lib/paths';
import { useDocumentTitle } from '../../lib/use-document-title';
import { FORCED_DOWNLOAD_AFTER_MS } from '@suite/contract/core';
import { ProgressBar } from '../../components/progress-bar';
import { Alert } from '../../components/alert';
import { formatBytes } from '../../lib/format-bytes';
import { forcedDownloadUrl } from './api/validate-link';
import { useFileLink } from './hooks/use-file-link';
import './file-download.css';

/**
 * `/file/{fileId}/download_link?share_key=`: validates the share link, then starts the forced download
 * by itself after 1 s; the same link stays on the page to download again (spec §2, §4), with who shared it.
 */
export default function FileDownloadPage() {
  const { t, i18n } = useTranslation('fileDownload');
  const { fileId = '' } = useParams();
  const [params] = useSearchParams();
  const shareKey = params.get('share_key') ?? '';
  const state = useFileLink(fileId, shareKey);
  const link = useRef<HTMLAnchorElement>(null);
  const href = forcedDownloadUrl(fileId, shareKey);
  const [started, setStarted] = useState(false);
  useDocumentTitle(
    state.status === 'processing'
      ? t('processing')
      : state.status === 'validated'
        ? t(started ? 'started' : 'validated')
        : t(state.code),
  );

  useEffect(() => {
    if (state.status !== 'validated') return;
    const timer = window.setTimeout(() => {
      link.current?.click();
      setStarted(true);
    }, FORCED_DOWNLOAD_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [state.status]);

  return (
    <div className="card simple-page stack file-download" data-state={state.status}>
      {state.status === 'processing' && (
        <div className="stack" role="status" aria-live="polite">
          <h1>{t('processing')}</h1>
          <p className="muted">{t('processingText')}</p>
        </div>
      )}
      {state.status === 'validated' && (
        <div className="stack">
          <h1>{t(started ? 'started' : 'validated')}</h1>
          <Alert variant="success">{t(started ? 'startedText' : 'validatedText')}</Alert>
          <p className="file-download__file">
            <span className="file-download__name">{state.file.name}</span>
            <span className="muted">{formatBytes(state.file.size, i18n.language)}</span>
            {state.file.shared_by ? (
              <span className="muted" data-testid="shared-by">
                {t('sharedBy', { name: state.file.shared_by })}
              </span>
            ) : null}
          </p>
          <a ref={link} className="btn btn--secondary btn--block" href={href} download>
            {t('downloadAgain')}
          </a>
        </div>
      )}
      {state.status === 'error' && (
        <div className="stack">
          <h1>{t(state.code)}</h1>
          <Alert>{t(`${state.code}_TEXT`)}</Alert>
          <Link className="btn btn--secondary btn--block" to={PATHS.root}>
            {t('home')}
          </Link>
        </div>
      )}
      {/* Only while it works: a full bar beside "ready" says nothing, and one stuck part-way on a failure
          would read as "still working". */}
      {state.status === 'processing' && <ProgressBar value={state.progress} label={t('progressLabel')} />}
    </div>
  );
}
