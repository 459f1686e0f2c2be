import { useState } from 'react';
import { useNavigate } from '../../lib/navigation';
import { useTranslation } from '../../lib/i18n-react';
import { useFormSubmit } from '../../lib/use-form-submit';
import { meetPath } from '../../lib/paths';
import { Alert } from '../../components/alert';
import { TextField } from '../../components/text-field';
import { FormSubmit } from '../../components/form-submit';
import { meetingCodeFrom } from '../../lib/meeting-code';

/**
 * `/guest` with no meeting to go to: said before any question (a name and terms would lead nowhere), and
 * the one thing that helps asked instead, the meeting's code or link. That meeting's pre-join then asks
 * for the name and the terms.
 */
export function GuestNoMeeting() {
  const { t } = useTranslation('guest');
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const { busy, error, field, onSubmit } = useFormSubmit<'code'>({
    validate: () => ({ fields: { code: meetingCodeFrom(value) ? undefined : t('noMeeting.invalid') } }),
    send: async () => navigate(meetPath(meetingCodeFrom(value)!)),
  });
  return (
    <form
      className="card guest stack"
      method="post"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="guest-title"
      data-testid="guest-no-meeting"
    >
      <h1 id="guest-title">{t('title')}</h1>
      <Alert variant="info">{t('noMeeting.text')}</Alert>
      <TextField
        label={t('noMeeting.label')}
        placeholder={t('noMeeting.placeholder')}
        autoComplete="off"
        spellCheck={false}
        autoFocus
        {...field('code', value, setValue)}
      />
      <FormSubmit error={error} busy={busy} label={t('noMeeting.submit')} />
    </form>
  );
}
