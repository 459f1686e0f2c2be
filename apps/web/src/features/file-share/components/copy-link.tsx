import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard';
import { Button } from '../../../components/button';
import { LabelledRow } from './labelled-row';

/** The new link in a read-only field with a copy button; falls back to selecting it for Ctrl+C. */
export function CopyLink({ url }: { url: string }) {
  const { t } = useTranslation('files');
  const field = useRef<HTMLInputElement>(null);
  const { status, copy } = useCopyToClipboard();
  // The new link is the next thing to take: the focus goes to it (selected), and "Create link" is left at rest.
  useEffect(() => field.current?.focus(), [url]);

  return (
    <div className="stack files__new-link">
      <LabelledRow label={t('newLink')} className="files__copy-row">
        {(id) => (
          <>
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
          </>
        )}
      </LabelledRow>
      <span className="muted files__copy-status" role="status" aria-live="polite">
        {status === 'copied' ? t('copied') : status === 'manual' ? t('copyManually') : t('newLinkHint')}
      </span>
    </div>
  );
}
