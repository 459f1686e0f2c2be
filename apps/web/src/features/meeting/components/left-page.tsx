import { useContext } from 'react';
import { useTranslation } from '../../../lib/i18n-react';
import { Button } from '../../../components/button';
import { RoomNotice } from './room-notice';
import type { LeaveReason } from './meeting-room';
import { MeetingNames } from '../lib/meeting-title';

/**
 * "You've left the room", the meeting's name, and Rejoin first: leaving takes one click, this is its undo.
 * The text says what the title does not (why, or what to do), never the title again.
 */
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
  const { meeting } = useContext(MeetingNames);
  return (
    <RoomNotice title={t('left.title')} testId="meeting-left">
      {meeting ? <p className="meet-notice__meeting">{meeting}</p> : null}
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
