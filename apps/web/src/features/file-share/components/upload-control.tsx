import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import type { StoredFile } from '@suite/contract/core';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { ProgressBar } from '../../../components/progress-bar';
import { useConfig } from '../../../lib/config';
import { formatBytes } from '../../../lib/format-bytes';
import { useErrorMessage } from '../../../lib/use-error-message';
import { uploadFile, type UploadHandle } from '../api/upload-file';

type Upload = { name: string; progress: number } | null;

/** Pick a file and send it, showing the upload progress; oversize files are refused before sending. */
export function UploadControl({ onUploaded }: { onUploaded: (file: StoredFile) => void }) {
  const { t, i18n } = useTranslation('files');
  const message = useErrorMessage();
  const { maxUploadBytes } = useConfig();
  const inputId = useId();
  const handle = useRef<UploadHandle | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<Upload>(null);
  const [error, setError] = useState<unknown>(null); // words, or a failure put in words at render
  const [done, setDone] = useState<string | null>(null);
  const limit = formatBytes(maxUploadBytes, i18n.language);

  useEffect(() => () => handle.current?.abort(), []);

  function start(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    setDone(null);
    if (file.size > maxUploadBytes) {
      setError(t('tooLarge', { limit }));
      return;
    }
    setUpload({ name: file.name, progress: 0 });
    handle.current = uploadFile(file, (fraction) =>
      setUpload({ name: file.name, progress: Math.round(fraction * 100) }),
    );
    handle.current.done
      .then(
        (stored) => {
          setDone(t('uploaded', { name: stored.name }));
          onUploaded(stored);
        },
        (failure: unknown) => {
          if (!(failure instanceof DOMException && failure.name === 'AbortError')) setError(failure);
        },
      )
      .finally(() => {
        handle.current = null;
        setUpload(null);
      });
  }

  return (
    <div className="stack files__upload">
      <div className="row">
        {/* The native input stays in the page (tests and assistive tech can reach it); the button opens it. */}
        <input
          ref={input}
          id={inputId}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          aria-label={t('choose')}
          onChange={start}
        />
        <Button onClick={() => input.current?.click()} loading={upload !== null}>
          {t('choose')}
        </Button>
        <span className="muted files__limit">{t('limit', { limit })}</span>
      </div>
      {upload && (
        <div className="stack files__progress" role="status" aria-live="polite">
          <span>{t('uploading', { name: upload.name, percent: upload.progress })}</span>
          <div className="row files__progress-row">
            <ProgressBar value={upload.progress} label={t('uploadProgress', { name: upload.name })} />
            <Button variant="link" onClick={() => handle.current?.abort()}>
              {t('cancel')}
            </Button>
          </div>
        </div>
      )}
      {error !== null && <Alert>{message(error)}</Alert>}
      {done && <Alert variant="success">{done}</Alert>}
    </div>
  );
}
