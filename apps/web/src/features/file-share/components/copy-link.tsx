import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard';
import { Button } from '../../../components/button';

/** The new link in a read-only field with a copy button; falls back to selecting it for Ctrl+C. */
export function CopyLink({ url }: { url: string }) {
  const { t } = useTranslation('files');
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const { status, copy } = useCopyToClipboard();

  return (
    <div className="stack files__new-link">
      <label htmlFor={id} className="field__label">
        {t('newLink')}
      </label>
      <div className="row files__copy-row">
        <input
          ref={field}
          id={id}
          className="files__link-input"
          readOnly
          value={url}
          onFocus={(e) => e.target.select()}
        />
        <Button variant="secondary" onClick={() => void copy(url, () => field.current?.select())}>
          {t('copy')}
        </Button>
      </div>
      <span className="muted files__copy-status" role="status" aria-live="polite">
        {status === 'copied' ? t('copied') : status === 'manual' ? t('copyManually') : t('newLinkHint')}
      </span>
    </div>
  );
}
