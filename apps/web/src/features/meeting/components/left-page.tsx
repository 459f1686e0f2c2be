import { useTranslation } from '../../../lib/i18n-react';
import { Button } from '../../../components/button';
import { RoomNotice } from './room-notice';
import type { LeaveReason } from './meeting-room';

/** "You've left the room", with a way back in. */
export function LeftPage({
  reason,
  onRejoin,
  homeUrl,
}: {
  reason: LeaveReason;
  onRejoin: () => void;
  homeUrl: string | null;
}) {
  const { t } = useTranslation('meeting');
  return (
    <RoomNotice title={t('left.title')} testId="meeting-left">
      <p>{reason === 'idle' ? t('left.idleText') : t('left.text')}</p>
      <div className="meet-actions">
        <Button onClick={onRejoin}>{t('left.rejoin')}</Button>
        {homeUrl ? (
          <a className="btn btn--secondary" href={homeUrl}>
            {t('left.home')}
          </a>
        ) : null}
      </div>
    </RoomNotice>
  );
}
