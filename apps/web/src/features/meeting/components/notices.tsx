import { Link } from 'wouter';
import { useHere } from '../../../lib/navigation';
import { useTranslation } from '../../../lib/i18n-react';
import { PATHS } from '../../../lib/paths';
import { Button } from '../../../components/button';
import { RoomNotice } from './room-notice';
import { JoinByCode } from './join-by-code';

export type Blocked = 'storage' | 'notConfigured' | 'unsupported';

/**
 * The way back from a room that cannot open: the start page (login, or the app when signed in). Quiet
 * (a link) where the page has its own main action (join another meeting).
 */
function HomeLink({ primary = false, quiet = false }: { primary?: boolean; quiet?: boolean }) {
  const { t } = useTranslation('meeting');
  const look = quiet ? 'btn--link' : primary ? 'btn--primary' : 'btn--secondary';
  return (
    <Link className={`btn ${look}`} to={PATHS.root}>
      {t('backHome')}
    </Link>
  );
}

/** Why the room cannot open here: blocked storage, no meeting domain, or an unsupported browser. */
export function BlockedNotice({ reason }: { reason: Blocked }) {
  const { t } = useTranslation(['meeting', 'common']);
  const here = useHere();
  if (reason === 'storage') {
    return (
      <RoomNotice title={t('cookies.title')} testId="meeting-cookies" page>
        <p>{t('cookies.text')}</p>
        {/* The help page's Reload brings the person back here. */}
        <Link to={PATHS.thirdPartyCookies} state={{ from: here }}>
          {t('cookies.help')}
        </Link>
      </RoomNotice>
    );
  }
  if (reason === 'notConfigured') {
    return (
      <RoomNotice title={t('notConfigured.title')} testId="meeting-not-configured" page>
        <p>{t('notConfigured.text')}</p>
        <HomeLink primary />
      </RoomNotice>
    );
  }
  return (
    <RoomNotice title={t('unsupported.title')} testId="meeting-unsupported" page>
      <p>{t('common:MSG_HOMOLOGATED_BROWSER')}</p>
      <Link to={PATHS.supportedBrowser}>{t('unsupported.link')}</Link>
      <HomeLink />
    </RoomNotice>
  );
}

const FINAL = ['ERR_INVITE_NOT_VALID', 'ERR_VIDEOCONFERENCE_NOT_FOUND', 'ERR_MEETINGS_NOT_CONFIGURED'];

/** The catalogue's sentence as a heading: headings end without a full stop (Latin or Devanagari). */
const asHeading = (sentence: string) => sentence.replace(/[.।]\s*$/u, '');

/** A dead link says so; anything else is a connection error with Try again. */
export function ErrorNotice({ code, onRetry }: { code: string; onRetry: () => void }) {
  const { t } = useTranslation(['meeting', 'errors']);
  const known = FINAL.includes(code);
  const notFound = code === 'ERR_VIDEOCONFERENCE_NOT_FOUND';
  return (
    <RoomNotice title={known ? asHeading(t(`errors:${code}`)) : t('connectError.title')} testId="meeting-error" page>
      <p>{known ? t(`meeting:codes.${code}`) : t('connectError.text')}</p>
      {/* A meeting that is not there: perhaps a mistyped or cut link, so another one can be pasted here. */}
      {notFound ? <JoinByCode headingLevel={2} primary /> : null}
      <div className="meet-actions">
        {known ? null : <Button onClick={onRetry}>{t('tryAgain')}</Button>}
        <HomeLink primary={known && !notFound} quiet={notFound} />
      </div>
    </RoomNotice>
  );
}
