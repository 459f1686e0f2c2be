import { useState } from 'react';
import { useNavigate } from '../../../lib/navigation';
import { useTranslation } from '../../../lib/i18n-react';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { meetPath } from '../../../lib/paths';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { meetingCodeFrom } from '../../../lib/meeting-code';

/** "Join with a code or link": a pasted link or a typed code opens that meeting's page. */
export function JoinByCode({ headingLevel = 3, primary = false }: { headingLevel?: 2 | 3; primary?: boolean }) {
  const { t } = useTranslation('meeting');
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  // Through the one submit hook: the check, its message at the field and the focus on it.
  const { field, onSubmit } = useFormSubmit<'code'>({
    validate: () => ({ fields: { code: meetingCodeFrom(value) ? undefined : t('joinCode.invalid') } }),
    send: async () => navigate(meetPath(meetingCodeFrom(value)!)),
  });

  return (
    <form className="meet-join-code" onSubmit={onSubmit} noValidate aria-labelledby="join-code-title">
      <Heading id="join-code-title" className="meet-panel__h3">
        {t('joinCode.title')}
      </Heading>
      <div className="meet-panel__form">
        <TextField
          label={t('joinCode.label')}
          hideLabel
          placeholder={t('joinCode.placeholder')}
          autoComplete="off"
          spellCheck={false}
          {...field('code', value, setValue)}
          required={false}
        />
        <Button type="submit" variant={primary ? 'primary' : 'secondary'}>
          {t('joinCode.submit')}
        </Button>
      </div>
    </form>
  );
}
