import { useRef, useState, type FormEvent } from 'react';
import { CODE_LENGTH } from '@suite/contract/core';
import { useTranslation } from '../../lib/i18n-react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { WithAddress } from '../../components/address';
import { CodeBoxes, type CodeBoxesHandle } from '../../components/code-boxes';
import { TextField } from '../../components/text-field';
import '../../components/auth-form.css';

/**
 * The new password's second step when the account has two-step verification: the server says so only
 * when the password is sent (the recovery token may not read the account's factors), so the code is a
 * calm step of its own, as at sign-in: six boxes that send themselves, or a recovery code. Nothing is in
 * error before the person has seen the question.
 */
export function PasswordCodeStep({
  email,
  busy,
  error,
  onSend,
  onBack,
  onType,
}: {
  email: string;
  busy: boolean;
  /** The last send's failure, already in words (null: none). */
  error: string | null;
  /** Sends the new password with this code (a refusal is in `error` afterwards). */
  onSend: (code: string) => Promise<void>;
  onBack: () => void;
  onType: () => void;
}) {
  const { t } = useTranslation(['updatePassword', 'loginStep']);
  const boxes = useRef<CodeBoxesHandle>(null);
  const [recovery, setRecovery] = useState(false);
  const [recoveryCode, setRecoveryCode] = useState('');
  const send = (code: string) =>
    void onSend(code).finally(() => {
      // A refused code leaves the boxes ready for the next one (a code that worked has left the screen).
      boxes.current?.clear();
    });
  function submitRecovery(event: FormEvent) {
    event.preventDefault();
    if (recoveryCode.trim()) send(recoveryCode.trim());
  }
  return (
    <div className="auth-form" aria-busy={busy || undefined} data-testid="update-code-step">
      <h1 id="update-code-title">{recovery ? t('loginStep:recoveryTitle') : t('loginStep:title')}</h1>
      <p className="auth-form__lead">
        <WithAddress
          email={email}
          text={recovery ? t('codeLeadRecovery', { email }) : t('codeLead', { n: CODE_LENGTH, email })}
        />
      </p>
      {recovery ? (
        <form className="stack" onSubmit={submitRecovery} noValidate aria-labelledby="update-code-title">
          <TextField
            label={t('loginStep:recovery')}
            hint={t('loginStep:recoveryHint')}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            value={recoveryCode}
            onChange={(e) => {
              setRecoveryCode(e.target.value);
              onType();
            }}
          />
          {error !== null && <Alert>{error}</Alert>}
          <Button type="submit" block loading={busy}>
            {t('submit')}
          </Button>
        </form>
      ) : (
        <>
          <CodeBoxes
            ref={boxes}
            label={t('loginStep:label')}
            digitLabel={(n) => t('loginStep:digit', { n, total: CODE_LENGTH })}
            onComplete={send}
            busy={busy}
            invalid={error !== null}
            onType={onType}
          />
          {busy ? <p className="auth-form__small muted center-text">{t('loginStep:checking')}</p> : null}
          {error !== null && <Alert>{error}</Alert>}
        </>
      )}
      <div className="auth-form__links">
        <Button variant="link" className="auth-form__quiet" onClick={onBack} disabled={busy}>
          {t('back')}
        </Button>
        <Button
          variant="link"
          className="auth-form__quiet"
          onClick={() => {
            setRecovery((r) => !r);
            onType();
          }}
        >
          {recovery ? t('loginStep:useApp') : t('loginStep:useRecovery')}
        </Button>
      </div>
    </div>
  );
}
