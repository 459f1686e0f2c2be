import { useId } from 'react';
import { MEETING_ACCESS_LEVELS, type MeetingAccess } from '@suite/contract';
import { useTranslation } from '../../../lib/i18n-react';

export interface AccessSelectProps {
  /** null: the server's default for new meetings (MEETING_DEFAULT_ACCESS). */
  value: MeetingAccess | null;
  onChange: (access: MeetingAccess) => void;
  disabled?: boolean;
  /** In a form of the home (the Meetings section): labelled like every other field there, not like the room's menus. */
  formLabel?: boolean;
}

/** Who goes straight into a meeting (the lobby's access level): a labelled native select. */
export function AccessSelect({ value, onChange, disabled, formLabel = false }: AccessSelectProps) {
  const { t } = useTranslation('meeting');
  const id = useId();
  return (
    <div className="meet-access">
      <label htmlFor={id} className={formLabel ? 'field__label' : 'meet-device__label'}>
        {t('access.label')}
      </label>
      <select
        id={id}
        className="meet-select"
        value={value ?? ''}
        disabled={disabled}
        data-testid="meeting-access"
        onChange={(e) => onChange(e.target.value as MeetingAccess)}
      >
        {value === null ? <option value="">{t('access.default')}</option> : null}
        {MEETING_ACCESS_LEVELS.map((level) => (
          <option key={level} value={level}>
            {t(`access.${level}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
