import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { meetPath } from '../../../lib/paths';
import type { Videoconference } from '@suite/contract/core';
import { Button } from '../../../components/button';
import { Alert } from '../../../components/alert';
import { TextField } from '../../../components/text-field';
import { useDialog } from '../../../components/confirm-dialog';
import { useErrorMessage } from '../../../lib/use-error-message';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard';
import { COPIED_FEEDBACK_MS } from '../lib/timings';
import { createVideoconference, endVideoconference, listVideoconferences } from '../api/my-videoconferences';
import '../meeting.css';

function CopyLink({ link }: { link: string }) {
  const { t } = useTranslation('meeting');
  const { status, copy } = useCopyToClipboard(COPIED_FEEDBACK_MS);
  const inputId = useId();
  return (
    <div className="meet-copy">
      <label htmlFor={inputId} className="visually-hidden">
        {t('panel.link')}
      </label>
      <input id={inputId} className="meet-copy__input" readOnly value={link} onFocus={(e) => e.target.select()} />
      <Button
        variant="secondary"
        onClick={() => void copy(link, () => (document.getElementById(inputId) as HTMLInputElement | null)?.select())}
      >
        {status === 'copied' ? t('panel.copied') : t('panel.copy')}
      </Button>
    </div>
  );
}

/** Signed-in home: start a meeting (copyable link) and the user's own meetings. */
export function MeetingsPanel() {
  const { t } = useTranslation('meeting');
  const errorMessage = useErrorMessage();
  const dialog = useDialog();
  const [title, setTitle] = useState('');
  const [list, setList] = useState<Videoconference[] | null>(null);
  const [created, setCreated] = useState<Videoconference | null>(null);
  const [busy, setBusy] = useState(false);
  // The failure itself, put in words at render (the error texts may arrive after it).
  const [error, setError] = useState<unknown>(null);

  const refresh = useCallback(() => {
    listVideoconferences().then(setList).catch(setError);
  }, []);
  useEffect(refresh, [refresh]);

  async function onCreate(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const vc = await createVideoconference(title.trim() || undefined);
      setCreated(vc);
      setTitle('');
      refresh();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  async function onEnd(vc: Videoconference) {
    const yes = await dialog.confirm({
      title: t('panel.endTitle'),
      text: t('panel.endText'),
      primaryLabel: t('panel.end'),
      secondaryLabel: t('panel.keep'),
      variant: 'danger',
    });
    if (!yes) return;
    try {
      await endVideoconference(vc._id);
      if (created?._id === vc._id) setCreated(null);
      refresh();
    } catch (e) {
      setError(e);
    }
  }

  const active = (list ?? []).filter((vc) => vc.status !== 'ended');
  return (
    <section className="card meet-panel stack" aria-labelledby="meetings-title">
      <h2 id="meetings-title">{t('panel.title')}</h2>
      <form className="meet-panel__form" onSubmit={onCreate}>
        <TextField label={t('panel.name')} maxLength={120} value={title} onChange={(e) => setTitle(e.target.value)} />
        <Button type="submit" loading={busy}>
          {t('panel.start')}
        </Button>
      </form>
      {created ? (
        <div className="stack meet-panel__created" role="status">
          <p>{t('panel.created')}</p>
          <CopyLink link={created.link} />
          <Link className="btn btn--primary" to={meetPath(created._id)}>
            {t('panel.join')}
          </Link>
        </div>
      ) : null}
      {error !== null ? <Alert>{errorMessage(error)}</Alert> : null}
      <h3 className="meet-panel__h3">{t('panel.mine')}</h3>
      {list === null ? (
        <p className="muted">{t('panel.loading')}</p>
      ) : active.length === 0 ? (
        <p className="muted">{t('panel.empty')}</p>
      ) : (
        <ul className="meet-list">
          {active.map((vc) => (
            <li key={vc._id} className="meet-list__item">
              <div className="meet-list__info">
                <Link to={meetPath(vc._id)} className="meet-list__name">
                  {vc.title || vc._id}
                </Link>
                <span className={`meet-status meet-status--${vc.status}`}>{t(`panel.status.${vc.status}`)}</span>
              </div>
              <CopyLink link={vc.link} />
              <Button
                variant="link"
                onClick={() => void onEnd(vc)}
                aria-label={t('panel.endNamed', { name: vc.title || vc._id })}
              >
                {t('panel.end')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
