import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n-react';
import { useCopyToClipboard } from '../../lib/use-copy-to-clipboard';
import { TextField } from '../../components/text-field';
import { Button } from '../../components/button';
import { invitationUrl } from './api/teammates';

/** The copyable invitation URL with feedback; when the clipboard is refused the text is selected instead. */
export function InvitationLink() {
  const { t } = useTranslation('teammates');
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const { status, copy } = useCopyToClipboard();
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    invitationUrl()
      .then((answer) => live && setUrl(answer.url))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, []);

  if (failed) return null;
  return (
    <section className="stack auth-form__divided" aria-labelledby="invite-link-title" style={{ gap: '0.5rem' }}>
      <h2 id="invite-link-title" style={{ fontSize: '1rem', margin: 0 }}>
        {t('linkTitle')}
      </h2>
      <div className="auth-form__copy">
        <TextField
          ref={field}
          label={t('linkLabel')}
          hideLabel
          readOnly
          value={url ?? t('linkLoading')}
          onFocus={(e) => e.target.select()}
        />
        <Button
          variant="secondary"
          onClick={() => url && void copy(url, () => field.current?.select())}
          disabled={!url}
        >
          {t('copy')}
        </Button>
      </div>
      <p className="auth-form__small muted" role="status">
        {status === 'copied' ? t('copied') : status === 'manual' ? t('copyManually') : ''}
      </p>
    </section>
  );
}
