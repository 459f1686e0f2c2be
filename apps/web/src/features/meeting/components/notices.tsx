import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../../lib/paths';
import { Button } from '../../../components/button';
import { RoomNotice } from './room-notice';

export type Blocked = 'storage' | 'notConfigured' | 'unsupported';

/** Why the room cannot open here: blocked storage, no meeting domain, or an unsupported browser. */
export function BlockedNotice({ reason }: { reason: Blocked }) {
  const { t } = useTranslation(['meeting', 'common']);
  if (reason === 'storage') {
    return (
      <RoomNotice title={t('cookies.title')} testId="meeting-cookies">
        <p>{t('cookies.text')}</p>
        <Link to={PATHS.thirdPartyCookies}>{t('cookies.help')}</Link>
      </RoomNotice>
    );
  }
  if (reason === 'notConfigured') {
    return (
      <RoomNotice title={t('notConfigured.title')} testId="meeting-not-configured">
        <p>{t('notConfigured.text')}</p>
      </RoomNotice>
    );
  }
  return (
    <RoomNotice title={t('unsupported.title')} testId="meeting-unsupported">
      <p>{t('common:MSG_HOMOLOGATED_BROWSER')}</p>
      <Link to={PATHS.supportedBrowser}>{t('unsupported.link')}</Link>
    </RoomNotice>
  );
}

const FINAL = ['ERR_INVITE_NOT_VALID', 'ERR_VIDEOCONFERENCE_NOT_FOUND', 'ERR_MEETINGS_NOT_CONFIGURED'];

/** A dead link says so; anything else is a connection error with Try again. */
export function ErrorNotice({ code, onRetry }: { code: string; onRetry: () => void }) {
  const { t } = useTranslation(['meeting', 'errors']);
  const known = FINAL.includes(code);
  return (
    <RoomNotice title={known ? t(`errors:${code}`) : t('connectError.title')} testId="meeting-error">
      <p>{known ? t(`meeting:codes.${code}`) : t('connectError.text')}</p>
      {known ? null : <Button onClick={onRetry}>{t('tryAgain')}</Button>}
    </RoomNotice>
  );
}
