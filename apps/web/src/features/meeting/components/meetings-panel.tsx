import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from '../../../lib/i18n-react';
import { useNavigate } from '../../../lib/navigation';
import { meetPath } from '../../../lib/paths';
import { DISPLAY_NAME_MAX_LENGTH, type Videoconference } from '@suite/contract/core';
import { Button } from '../../../components/button';
import { Alert } from '../../../components/alert';
import { TextField } from '../../../components/text-field';
import { useDialog } from '../../../components/confirm-dialog';
import { useConfig } from '../../../lib/config';
import { actingProfile } from '../../../lib/session';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard';
import { COPIED_FEEDBACK_MS } from '../lib/timings';
import { createVideoconference, endVideoconference, listVideoconferences } from '../api/my-videoconferences';
import { AccessSelect } from './access-select';
import type { MeetingAccess } from '@suite/contract';
import { JoinByCode } from './join-by-code';
import '../meeting.css';
import '../../../components/destructive.css';

/** Copies a meeting's link; the link itself shows once, beside it. */
function CopyButton({ link, name }: { link: string; name: string }) {
  const { t } = useTranslation('meeting');
  const { status, copy } = useCopyToClipboard(COPIED_FEEDBACK_MS);
  return (
    <>
      <Button
        variant="secondary"
        className="btn--small"
        aria-label={status === 'idle' ? t('panel.copyNamed', { name }) : undefined}
        onClick={() => void copy(link)}
      >
        {status === 'copied' ? t('panel.copied') : t('panel.copy')}
      </Button>
      <span className="visually-hidden" role="status">
        {status === 'manual' ? t('panel.copyManually') : status === 'copied' ? t('panel.copied') : ''}
      </span>
    </>
  );
}

/**
 * One meeting: its name and state, its link once (shortened in the middle of nothing: the end may go), Join
 * (secondary: the page's one primary action is "Start a meeting"). Ending one nobody has joined yet only
 * kills its link, so there it is called what it does: "Delete meeting".
 */
function MeetingItem({
  vc,
  name,
  fresh,
  onEnd,
}: {
  vc: Videoconference;
  name: string;
  /** Just made with "Create for later": first in the list, marked, its link ready to copy. */
  fresh: boolean;
  onEnd: () => void;
}) {
  const { t } = useTranslation('meeting');
  const started = vc.status === 'started';
  return (
    <li className={`meet-list__item${fresh ? ' meet-list__item--new' : ''}`} data-testid="meeting-item">
      {fresh ? <p className="meet-list__new">{t('panel.createdLater')}</p> : null}
      <div className="meet-list__info">
        <span className="meet-list__name">{name}</span>
        <span className={`meet-status meet-status--${vc.status}`}>{t(`panel.status.${vc.status}`)}</span>
      </div>
      <span className="meet-list__link" title={vc.link}>
        {vc.link.replace(/^https?:\/\//, '')}
      </span>
      <div className="meet-list__actions">
        <Link
          className="btn btn--secondary btn--small"
          to={meetPath(vc._id)}
          aria-label={t('panel.joinNamed', { name })}
        >
          {t('panel.join')}
        </Link>
        <CopyButton link={vc.link} name={name} />
        <Button
          variant="quiet-danger"
          className="btn--small meet-list__end"
          onClick={onEnd}
          aria-label={started ? t('panel.endNamed', { name }) : t('panel.deleteNamed', { name })}
        >
          {started ? t('panel.end') : t('panel.delete')}
        </Button>
      </div>
    </li>
  );
}

/** Signed-in home: start a meeting, join one by code or link, and the user's own meetings. */
export function MeetingsPanel() {
  const { t } = useTranslation('meeting');
  const navigate = useNavigate();
  const dialog = useDialog();
  const [title, setTitle] = useState('');
  const [access, setAccess] = useState<MeetingAccess | null>(null);
  const [list, setList] = useState<Videoconference[] | null>(null);
  const [created, setCreated] = useState<Videoconference | null>(null);
  const configured = Boolean(useConfig().meetDomain);
  const firstName = actingProfile()?.info.first_name;
  // An untitled meeting reads as its owner's ("Ada's meeting"), never as its id.
  const displayName = (vc: Videoconference) =>
    vc.title || (firstName ? t('panel.untitledOf', { name: firstName }) : t('panel.untitled'));

  // "Start a meeting" goes into it; "Create for later" stays here and gives its link to share.
  const [later, setLater] = useState(false);
  const create = useFormSubmit({ movesOn: false });
  const createMeeting = (forLater: boolean) => {
    setLater(forLater);
    return create.run(null, async () => {
      setError(null);
      const vc = await createVideoconference(title.trim() || undefined, access ?? undefined);
      if (!forLater) {
        navigate(meetPath(vc._id));
        return;
      }
      setCreated(vc);
      setTitle('');
      refresh();
    });
  };
  // Ending a meeting and loading the list report their failures in the same place as starting one.
  const end = useFormSubmit({ movesOn: false });
  const { setError } = end;
  const refresh = useCallback(() => {
    listVideoconferences().then(setList).catch(setError);
  }, [setError]);
  useEffect(refresh, [refresh]);

  async function onEnd(vc: Videoconference) {
    const started = vc.status === 'started';
    const yes = await dialog.confirm({
      title: t(started ? 'panel.endTitleNamed' : 'panel.deleteTitleNamed', { name: displayName(vc) }),
      text: started ? t('panel.endText') : t('panel.deleteText'),
      primaryLabel: started ? t('panel.end') : t('panel.delete'),
      secondaryLabel: t('panel.keep'),
      variant: 'danger',
    });
    if (!yes) return;
    await end.run(null, async () => {
      await endVideoconference(vc._id);
      if (created?._id === vc._id) setCreated(null);
      refresh();
    });
  }
  const error = create.error ?? end.error;

  const active = (list ?? [])
    .filter((vc) => vc.status !== 'ended')
    .sort((a, b) => Number(b._id === created?._id) - Number(a._id === created?._id));
  return (
    <section className="card meet-panel stack" aria-labelledby="meetings-title">
      <h2 id="meetings-title">{t('panel.title')}</h2>
      {configured ? (
        <form
          className="meet-panel__form"
          onSubmit={(event) => {
            event.preventDefault();
            void createMeeting(false);
          }}
        >
          <TextField
            label={t('panel.name')}
            maxLength={DISPLAY_NAME_MAX_LENGTH}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
          />
          <AccessSelect value={access} onChange={setAccess} formLabel />
          <div className="meet-panel__buttons">
            <Button type="submit" loading={create.busy && !later} disabled={create.busy}>
              {t('panel.start')}
            </Button>
            <Button
              variant="secondary"
              loading={create.busy && later}
              disabled={create.busy}
              onClick={() => void createMeeting(true)}
            >
              {t('panel.later')}
            </Button>
          </div>
        </form>
      ) : (
        <p className="alert alert--info" data-testid="meetings-not-configured">
          {t('notConfigured.text')}
        </p>
      )}
      {/* A meeting made for later shows in the list below (first, marked, with its Copy), not in the middle
          of the form; this says so to a screen reader. */}
      <p role="status" className="visually-hidden">
        {created ? t('panel.createdLater') : ''}
      </p>
      {error !== null ? <Alert>{error}</Alert> : null}
      {configured ? <JoinByCode /> : null}
      <h3 className="meet-panel__h3">{t('panel.mine')}</h3>
      {list === null ? (
        <p className="muted">{t('panel.loading')}</p>
      ) : active.length === 0 ? (
        <p className="muted">{t('panel.empty')}</p>
      ) : (
        <ul className="meet-list">
          {active.map((vc) => (
            <MeetingItem
              key={vc._id}
              vc={vc}
              name={displayName(vc)}
              fresh={vc._id === created?._id}
              onEnd={() => void onEnd(vc)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
