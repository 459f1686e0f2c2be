import { useState, type FormEvent } from 'react';
import { useNavigate } from '../../../lib/navigation';
import { useTranslation } from '../../../lib/i18n-react';
import { meetPath } from '../../../lib/paths';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import { meetingCodeFrom } from '../lib/meeting-code';

/** "Join with a code or link": a pasted link or a typed code opens that meeting's page. */
export function JoinByCode({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const { t } = useTranslation('meeting');
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const code = meetingCodeFrom(value);
    if (!code) {
      setError(t('joinCode.invalid'));
      return;
    }
    navigate(meetPath(code));
  }

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
          value={value}
          error={error}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
        />
        <Button type="submit" variant="secondary">
          {t('joinCode.submit')}
        </Button>
      </div>
    </form>
  );
}
