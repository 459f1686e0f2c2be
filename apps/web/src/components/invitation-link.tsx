import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../lib/i18n-react';
import { currentLanguage } from '../lib/i18n';
import { currentUser } from '../lib/session';
import { useCopyToClipboard } from '../lib/use-copy-to-clipboard';
import { useFormSubmit } from '../lib/use-form-submit';
import { TextField } from './text-field';
import { Button } from './button';
import { Alert } from './alert';
import { useDialog } from './confirm-dialog';
import { invitationUrl } from '../lib/invitation-url';
import { WithDomain } from './address';
import './destructive.css';

type Link = { url: string | null; expires_at: string | null };

/**
 * The copyable invitation URL with feedback; when the clipboard is refused the text is selected instead.
 * `manage` (the home's "Invite your teammates" dialog): also "New link" and "Turn off link", each after a
 * confirmation, and the link's state when it is off; its heading is the dialog's title. Without it (the
 * teammates step) a link that is off is not shown.
 */
export function InvitationLink({ manage = false }: { manage?: boolean }) {
  const { t } = useTranslation('teammates');
  const dialog = useDialog();
  const [link, setLink] = useState<Link | null>(null);
  const [failed, setFailed] = useState(false);
  // "New link" and "Turn off link" through the one submit hook (one at a time); which one is running.
  const action = useFormSubmit({ movesOn: false });
  const [acting, setActing] = useState<'POST' | 'DELETE'>('POST');
  const busy = action.busy ? acting : null;
  const [notice, setNotice] = useState('');
  const { status, copy } = useCopyToClipboard();
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    invitationUrl()
      .then((answer) => live && setLink(answer))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, []);

  async function change(method: 'POST' | 'DELETE') {
    const yes = await dialog.confirm(
      method === 'POST'
        ? { title: t('newTitle'), text: t('newText'), primaryLabel: t('newLink'), secondaryLabel: t('cancel') }
        : {
            title: t('offTitle'),
            text: t('offText'),
            primaryLabel: t('turnOff'),
            secondaryLabel: t('cancel'),
            variant: 'danger',
          },
    );
    if (!yes || action.busy) return;
    setActing(method);
    setNotice('');
    await action.run(null, async () => {
      setLink(await invitationUrl(method));
      setNotice(method === 'POST' ? t('newDone') : t('offDone'));
    });
  }

  const url = link?.url ?? null;
  if (failed || (!manage && link && !url)) return null;
  const domain = currentUser()?.email.split('@')[1] ?? '';
  const until = link?.expires_at
    ? new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'long' }).format(new Date(link.expires_at))
    : '';
  const off = link !== null && !url;
  return (
    <section
      className={manage ? 'stack invite-link' : 'stack auth-form__divided'}
      aria-labelledby="invite-link-title"
      style={{ gap: '0.5rem' }}
    >
      {manage ? (
        <h2 id="invite-link-title">{t('manageTitle')}</h2>
      ) : (
        <h2 id="invite-link-title" style={{ fontSize: '1rem', margin: 0 }}>
          {t('linkTitle')}
        </h2>
      )}
      {off ? (
        <p className="muted" style={{ margin: 0 }} data-testid="invite-link-off">
          {t('offState')}
        </p>
      ) : (
        <>
          {manage && until ? (
            <p className="muted" style={{ margin: 0 }}>
              <WithDomain text={t('manageLead', { domain, date: until })} domain={domain} />
            </p>
          ) : null}
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
        </>
      )}
      {manage && link ? (
        <div className="row" style={{ gap: '0.5rem', flexWrap: 'wrap' }}>
          <Button variant="secondary" onClick={() => void change('POST')} loading={busy === 'POST'}>
            {t('newLink')}
          </Button>
          {off ? null : (
            <Button variant="quiet-danger" onClick={() => void change('DELETE')} loading={busy === 'DELETE'}>
              {t('turnOff')}
            </Button>
          )}
        </div>
      ) : null}
      {action.error !== null ? <Alert>{action.error}</Alert> : null}
      <p className="auth-form__small muted" role="status">
        {status === 'copied' ? t('copied') : status === 'manual' ? t('copyManually') : notice}
      </p>
    </section>
  );
}
